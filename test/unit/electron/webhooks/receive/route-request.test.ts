/** The first receiver step: path, method, self-check and content type, decided before any body byte. */
import { describe, expect, it } from 'vitest';
import { routeRequest } from '../../../../../electron/webhooks/receive/route-request';

const path = '/kick/webhook';

function decide(method: string | undefined, url: string | undefined, contentType?: string) {
  const decision = routeRequest({ method, url, contentType, path });
  return decision.kind === 'reject'
    ? { kind: 'reject', code: decision.error.code, status: decision.error.status }
    : decision;
}

describe('routeRequest', () => {
  it('takes a POST of JSON on the exact path as a delivery, parameters and query allowed', () => {
    expect(decide('POST', path, 'application/json')).toEqual({ kind: 'delivery' });
    expect(decide('POST', `${path}?a=1`, 'Application/JSON ; charset=utf-8')).toEqual({ kind: 'delivery' });
  });

  it('answers 404 for any other path, whatever the method', () => {
    for (const url of ['/', `${path}/`, '/kick/webhooks', '/KICK/WEBHOOK', `http://evil${path}`, '', undefined]) {
      expect(decide('POST', url, 'application/json'), String(url)).toEqual({
        kind: 'reject',
        code: 'NotFound',
        status: 404,
      });
    }
  });

  it('answers 405 for other methods, and for a GET without a usable check nonce', () => {
    for (const method of ['PUT', 'DELETE', 'HEAD', 'OPTIONS', undefined]) {
      expect(decide(method, path)).toEqual({ kind: 'reject', code: 'WebhookMethod', status: 405 });
    }
    for (const url of [
      path,
      `${path}?check=`,
      `${path}?check=${'a'.repeat(129)}`,
      `${path}?check=a%20b`,
      `${path}?x=1`,
    ]) {
      expect(decide('GET', url), url).toEqual({ kind: 'reject', code: 'WebhookMethod', status: 405 });
    }
  });

  it('recognises the self-check', () => {
    expect(decide('GET', `${path}?check=3f9a1c0b5e2d`)).toEqual({ kind: 'check', nonce: '3f9a1c0b5e2d' });
    expect(decide('GET', `${path}?x=1&check=a.b_c~d-e`)).toEqual({ kind: 'check', nonce: 'a.b_c~d-e' });
  });

  it('answers 415 unless the media type is application/json', () => {
    for (const type of [undefined, '', 'text/plain', 'application/jsonp', 'application/json-patch+json', 'json']) {
      expect(decide('POST', path, type), String(type)).toEqual({
        kind: 'reject',
        code: 'WebhookContentType',
        status: 415,
      });
    }
  });
});
