/**
 * Provider discovery against a hostile or broken web host, over real HTTP with the real `fetch`: answers of
 * megabytes (a padded discovery answer, a connection token of megabytes) are no answer, and the known Pusher
 * key is used instead.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { discoverTarget, FALLBACK_PUSHER } from '../../../electron/live-socket/discovery';
import { WEB_ANSWER_MAX_CHARS } from '../../../electron/live-socket/web-fetch';

let server: Server;
let web = '';
let answers: Record<string, () => string> = {};

beforeEach(async () => {
  answers = {};
  server = createServer((req, res) => {
    req.resume();
    const answer = answers[req.url ?? ''];
    res.writeHead(answer ? 200 : 404, { 'content-type': 'application/json' }).end(answer ? answer() : '{}');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  web = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterEach(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

async function discover() {
  const lines: string[] = [];
  const target = await discoverTarget({
    fetch: (url, init) => globalThis.fetch(url, init),
    webUrl: web,
    pusherUrl: 'ws://127.0.0.1:1',
    channelId: 99,
    clientId: 'c-1',
    log: (line) => lines.push(line),
  });
  return { target, lines };
}

const DISCOVERY = '/api/v1/realtime/channels/99/chat/connection';
const TOKEN = '/api/v1/realtime/auth/connection';
const centrifugoOnly = () =>
  JSON.stringify({ data: { connections: [{ provider: 'centrifugo', credentials: { url: `ws://127.0.0.1:2/c` } }] } });

describe('discovery against a hostile web host', () => {
  it('takes no Centrifugo token of megabytes', async () => {
    answers[DISCOVERY] = centrifugoOnly;
    answers[TOKEN] = () => JSON.stringify({ data: { token: 'a'.repeat(3_000_000) } });
    const { target, lines } = await discover();
    expect(target).toMatchObject({ provider: 'pusher', key: FALLBACK_PUSHER.key, keySource: 'fallback' });
    expect(lines.join('\n')).toContain('no Centrifugo token');
  });

  it('takes a token of ordinary length from the same host', async () => {
    answers[DISCOVERY] = centrifugoOnly;
    answers[TOKEN] = () => JSON.stringify({ data: { token: 'a'.repeat(900) } });
    expect((await discover()).target).toMatchObject({ provider: 'centrifugo', keySource: 'discovered' });
  });

  it('reads no discovery answer longer than the limit, however well-formed', async () => {
    answers[DISCOVERY] = () =>
      JSON.stringify({
        data: { connections: [{ provider: 'pusher', credentials: { app_key: 'padded' } }] },
        padding: 'x'.repeat(WEB_ANSWER_MAX_CHARS + 1),
      });
    const { target, lines } = await discover();
    expect(target).toMatchObject({ keySource: 'fallback' });
    expect(lines.join('\n')).toContain('over 1,000,000 characters');
  });

  it('reads no Centrifugo token from the credentials of megabytes either', async () => {
    answers[DISCOVERY] = () =>
      JSON.stringify({
        data: {
          connections: [
            { provider: 'centrifugo', credentials: { url: 'ws://127.0.0.1:2/c', token: 't'.repeat(9000) } },
          ],
        },
      });
    answers[TOKEN] = () => JSON.stringify({});
    expect((await discover()).target).toMatchObject({ keySource: 'fallback' });
  });
});
