import { describe, expect, it } from 'vitest';
import { AdjustableClock } from '../../../../../electron/core/clock';
import {
  createTunnel,
  parseTunnelHost,
  parseTunnelSetting,
} from '../../../../../electron/webhooks/tunnel/create-tunnel';
import { LocalTunnel } from '../../../../../electron/webhooks/tunnel/localtunnel-tunnel';
import { joinPath, routeThrough } from '../../../../../electron/webhooks/tunnel/self-check';
import { OffTunnel, parsePublicBaseUrl, StaticTunnel } from '../../../../../electron/webhooks/tunnel/static-tunnel';
import { isAppError } from '../../../../../shared/errors';

function codeOf(run: () => unknown): string | undefined {
  try {
    run();
  } catch (error) {
    return isAppError(error) ? error.code : 'not an AppError';
  }
  return undefined;
}

describe('parseTunnelSetting (GREENROOM_TUNNEL)', () => {
  it('defaults to localtunnel and reads the keywords case-insensitively', () => {
    expect(parseTunnelSetting(undefined)).toEqual({ kind: 'localtunnel' });
    expect(parseTunnelSetting('  ')).toEqual({ kind: 'localtunnel' });
    expect(parseTunnelSetting('LocalTunnel')).toEqual({ kind: 'localtunnel' });
    expect(parseTunnelSetting('OFF')).toEqual({ kind: 'off' });
    expect(parseTunnelSetting(' https://hooks.example.com ')).toEqual({
      kind: 'static',
      url: 'https://hooks.example.com',
    });
  });

  it('refuses anything else', () => {
    expect(codeOf(() => parseTunnelSetting('ngrok'))).toBe('InvalidArgument');
    expect(codeOf(() => parseTunnelSetting('hooks.example.com'))).toBe('InvalidArgument');
  });
});

describe('parsePublicBaseUrl', () => {
  it('keeps an https origin and path without the trailing slash', () => {
    expect(parsePublicBaseUrl('https://hooks.example.com/')).toBe('https://hooks.example.com');
    expect(parsePublicBaseUrl('https://Example.com:8443/greenroom//')).toBe('https://example.com:8443/greenroom');
  });

  it.each([
    'http://hooks.example.com',
    'https://user:pw@hooks.example.com',
    'https://hooks.example.com/?a=1',
    'https://hooks.example.com/#x',
    'https://',
  ])('refuses %s', (value) => {
    expect(codeOf(() => parsePublicBaseUrl(value))).toBe('InvalidArgument');
  });
});

describe('parseTunnelHost (GREENROOM_TUNNEL_HOST)', () => {
  it('defaults to localtunnel.me and keeps only the origin', () => {
    expect(parseTunnelHost(undefined)).toBe('https://localtunnel.me');
    expect(parseTunnelHost('http://127.0.0.1:4000/')).toBe('http://127.0.0.1:4000');
    expect(parseTunnelHost('https://lt.example.com')).toBe('https://lt.example.com');
  });

  it.each(['lt.example.com', 'ftp://lt.example.com', 'https://lt.example.com/sub'])('refuses %s', (value) => {
    expect(codeOf(() => parseTunnelHost(value))).toBe('InvalidArgument');
  });
});

describe('createTunnel', () => {
  const base = { subdomain: 'greenroomabcd', localPort: 3000, receiverPath: '/kick/webhook' };
  const deps = { clock: new AdjustableClock() };

  it('builds the adapter the setting names, off and static ones starting in their state', async () => {
    expect(createTunnel({ ...base }, deps)).toBeInstanceOf(LocalTunnel);
    const off = createTunnel({ ...base, tunnel: 'off' }, deps);
    const fixed = createTunnel({ ...base, tunnel: 'https://h.example.com', selfCheck: false }, deps);
    expect(off).toBeInstanceOf(OffTunnel);
    expect(fixed).toBeInstanceOf(StaticTunnel);

    await fixed.start();
    expect(fixed.status()).toEqual({ state: 'up', url: 'https://h.example.com' });
    expect(off.status()).toEqual({ state: 'off' });
  });

  it('refuses an invalid subdomain for localtunnel', () => {
    expect(codeOf(() => createTunnel({ ...base, subdomain: 'Bad-One' }, deps))).toBe('InvalidArgument');
  });
});

describe('self-check helpers', () => {
  it('joinPath keeps a base path and one slash', () => {
    expect(joinPath('https://a.example/', '/kick/webhook')).toBe('https://a.example/kick/webhook');
    expect(joinPath('https://a.example/base', 'kick/webhook')).toBe('https://a.example/base/kick/webhook');
  });

  it('routeThrough sends to the server with the public host and the server port in Host', () => {
    const route = routeThrough('http://127.0.0.1:4567');
    expect(route(new URL('http://abcd.localhost/kick/webhook?check=1'))).toEqual({
      origin: 'http://127.0.0.1:4567',
      host: 'abcd.localhost:4567',
    });
    expect(routeThrough('https://lt.example.com')(new URL('https://abcd.lt.example.com/x'))).toEqual({
      origin: 'https://lt.example.com',
      host: 'abcd.lt.example.com',
    });
  });
});
