import { describe, expect, it } from 'vitest';
import { discoverTarget, FALLBACK_PUSHER } from '../../../../electron/live-socket/discovery';
import { scriptedFetch } from './live-socket-fixtures';

const WEB = 'https://web.example';
const PUSHER_URL = 'wss://ws-us2.pusher.com';
const json = (body: unknown, status = 200) => ({ status, body: JSON.stringify(body) });

async function discover(answer: Parameters<typeof scriptedFetch>[0]) {
  const { fetch, calls } = scriptedFetch(answer);
  const lines: string[] = [];
  const target = await discoverTarget({
    fetch,
    webUrl: WEB,
    pusherUrl: PUSHER_URL,
    channelId: 99,
    clientId: 'c-1',
    log: (l) => lines.push(l),
  });
  return { target, calls, lines };
}

const FALLBACK = {
  provider: 'pusher',
  socketUrl: PUSHER_URL,
  key: FALLBACK_PUSHER.key,
  cluster: 'us2',
  keySource: 'fallback',
};

describe('discoverTarget', () => {
  it('asks Kick for the provider with the channel id and takes the key it names', async () => {
    const { target, calls } = await discover(() =>
      json({
        data: { connections: [{ provider: 'pusher', credentials: { app_key: 'newkey123', cluster: 'eu' }, extra: 1 }] },
      }),
    );
    expect(calls).toEqual([
      {
        url: `${WEB}/api/v1/realtime/channels/99/chat/connection`,
        method: 'POST',
        body: {
          client: { id: 'c-1', type: 'web' },
          capabilities: { accepted_providers: [{ provider: 'pusher' }, { provider: 'centrifugo' }] },
        },
      },
    ]);
    expect(target).toEqual({
      provider: 'pusher',
      socketUrl: PUSHER_URL,
      key: 'newkey123',
      cluster: 'eu',
      keySource: 'discovered',
    });
  });

  it('prefers Pusher when both are offered', async () => {
    const { target } = await discover(() =>
      json({
        data: {
          connections: [
            { provider: 'centrifugo', credentials: { url: 'wss://rt.example/connection/websocket', token: 't' } },
            { provider: 'pusher', credentials: { app_key: 'k2' } },
          ],
        },
      }),
    );
    expect(target).toMatchObject({ provider: 'pusher', key: 'k2', cluster: 'us2' });
  });

  it('connects with Centrifugo when it is all that is offered, asking for a token', async () => {
    const { target, calls } = await discover((url) =>
      url.endsWith('/auth/connection')
        ? json({ data: { token: 'jwt-1' } })
        : json({
            data: {
              connections: [{ provider: 'centrifugo', credentials: { url: 'ws://127.0.0.1:9/connection/websocket' } }],
            },
          }),
    );
    expect(target).toEqual({
      provider: 'centrifugo',
      url: 'ws://127.0.0.1:9/connection/websocket',
      token: 'jwt-1',
      keySource: 'discovered',
    });
    expect(calls[1]).toEqual({
      url: `${WEB}/api/v1/realtime/auth/connection`,
      method: 'POST',
      body: { client_id: 'c-1' },
    });
  });

  const failures: [string, Parameters<typeof scriptedFetch>[0], string][] = [
    ['the host cannot be reached', () => new Error('connect ECONNREFUSED'), 'ECONNREFUSED'],
    [
      'Cloudflare answers with a challenge page',
      () => ({ status: 403, body: '<!DOCTYPE html><html>Just a moment', headers: { 'cf-mitigated': 'challenge' } }),
      'HTTP 403 (a browser check, not Kick)',
    ],
    ['Kick answers 500', () => json({ message: 'x' }, 500), 'HTTP 500'],
    ['the answer is not JSON', () => ({ status: 200, body: 'hello' }), 'not JSON'],
    ['the answer has no connections', () => json({ data: {} }), 'without data.connections'],
    ['connections is not a list', () => json({ data: { connections: 'pusher' } }), 'without data.connections'],
    [
      'only an unknown provider is offered',
      () => json({ data: { connections: [{ provider: 'ably', credentials: {} }] } }),
      'ably',
    ],
    [
      'the Pusher key is not a key',
      () => json({ data: { connections: [{ provider: 'pusher', credentials: { app_key: '../../evil?x=' } }] } }),
      'no provider',
    ],
    [
      'Centrifugo is offered with an http URL',
      () => json({ data: { connections: [{ provider: 'centrifugo', credentials: { url: 'http://x', token: 't' } }] } }),
      'no provider',
    ],
    [
      'Centrifugo is offered but no token is given',
      (url) =>
        url.endsWith('/auth/connection')
          ? json({ data: {} })
          : json({
              data: { connections: [{ provider: 'centrifugo', credentials: { url: 'wss://x/connection/websocket' } }] },
            }),
      'no provider',
    ],
  ];
  for (const [what, answer, said] of failures) {
    it(`falls back to the known Pusher key when ${what}`, async () => {
      const { target, lines } = await discover(answer);
      expect(target).toEqual(FALLBACK);
      expect(lines.join('\n')).toContain(said);
    });
  }
});
