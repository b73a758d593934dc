/**
 * Provider discovery in Kick's mode (an `https://` web host) offering Centrifugo on a plain `ws://` line to
 * another machine: Kick's token and every frame would cross the network unencrypted, and anyone on the path
 * could write chat into the room. The known Pusher key is used instead; a `wss://` line, or a stand-in on this
 * machine, is still taken.
 */
import { describe, expect, it } from 'vitest';
import { discoverTarget } from '../../../../electron/live-socket/discovery';
import { scriptedFetch } from './live-socket-fixtures';

async function discover(webUrl: string, socketUrl: string) {
  const { fetch } = scriptedFetch(() => ({
    status: 200,
    body: JSON.stringify({
      data: { connections: [{ provider: 'centrifugo', credentials: { url: socketUrl, token: 'jwt' } }] },
    }),
  }));
  const lines: string[] = [];
  const target = await discoverTarget({
    fetch,
    webUrl,
    pusherUrl: 'wss://ws-us2.pusher.com',
    channelId: 99,
    clientId: 'c-1',
    log: (line) => lines.push(line),
  });
  return { target, lines };
}

describe('discovery offering an unencrypted Centrifugo line', () => {
  for (const url of ['ws://realtime.evil.example/connection/websocket', 'ws://10.0.0.5:8000/c', 'WS://x.example/c']) {
    it(`uses the known Pusher key, not ${url}, when Kick's web host is https`, async () => {
      const { target, lines } = await discover('https://web.kick.com', url);
      expect(target).toMatchObject({ provider: 'pusher', keySource: 'fallback' });
      expect(lines.join('\n')).toMatch(/no provider Greenroom can use/);
    });
  }

  const taken: [string, string][] = [
    ['https://web.kick.com', 'wss://realtime.us.platform.kick.com/connection/websocket'],
    ['https://web.kick.com', 'ws://127.0.0.1:9/connection/websocket'],
    ['http://127.0.0.1:4000', 'ws://127.0.0.1:4001/connection/websocket'],
  ];
  for (const [web, url] of taken) {
    it(`takes ${url} from ${web}`, async () => {
      expect((await discover(web, url)).target).toMatchObject({ provider: 'centrifugo', url });
    });
  }
});
