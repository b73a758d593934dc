import { describe, expect, it } from 'vitest';
import { lookUpChannelIds } from '../../../../electron/live-socket/channel-ids';
import { scriptedFetch } from './live-socket-fixtures';

const SITE = 'https://site.example';
const CHANNEL = {
  id: 127229430,
  user_id: 5,
  slug: 'my-channel',
  chatroom: { id: 126939890, channel_id: 127229430 },
  livestream: null,
};

describe('lookUpChannelIds', () => {
  it("reads the channel id and the chatroom id from Kick's channel endpoint", async () => {
    const { fetch, calls } = scriptedFetch(() => ({
      status: 200,
      body: JSON.stringify({ ...CHANNEL, new_field: {} }),
    }));
    expect(await lookUpChannelIds(fetch, SITE, 'my-channel')).toEqual({
      ok: true,
      value: { channelId: 127229430, chatroomId: 126939890 },
    });
    expect(calls).toEqual([{ url: `${SITE}/api/v2/channels/my-channel`, method: 'GET', body: undefined }]);
  });

  it('tries the slug with `-` for `_` when the first is not found', async () => {
    const { fetch, calls } = scriptedFetch((url) =>
      url.endsWith('/my-channel') ? { status: 200, body: JSON.stringify(CHANNEL) } : { status: 404, body: '{}' },
    );
    expect((await lookUpChannelIds(fetch, SITE, 'my_channel')).ok).toBe(true);
    expect(calls.map((c) => c.url)).toEqual([
      `${SITE}/api/v2/channels/my_channel`,
      `${SITE}/api/v2/channels/my-channel`,
    ]);
  });

  it('escapes the slug into one path segment', async () => {
    const { fetch, calls } = scriptedFetch(() => ({ status: 404, body: '{}' }));
    await lookUpChannelIds(fetch, SITE, '../x?y');
    expect(calls[0]!.url).toBe(`${SITE}/api/v2/channels/..%2Fx%3Fy`);
  });

  const failures: [string, { status: number; body: string; headers?: Record<string, string> } | Error, string][] = [
    [
      'Cloudflare challenges',
      { status: 403, body: '<html>Just a moment</html>', headers: { 'cf-mitigated': 'challenge' } },
      'HTTP 403 (a browser check, not Kick)',
    ],
    ['a challenge page comes with 200', { status: 200, body: '<!DOCTYPE html><html>' }, 'not JSON'],
    ['the network fails', new Error('getaddrinfo ENOTFOUND'), 'ENOTFOUND'],
    ['there is no chatroom', { status: 200, body: JSON.stringify({ id: 1 }) }, 'no id and chatroom.id'],
    [
      'the ids are not whole numbers',
      { status: 200, body: JSON.stringify({ id: '1', chatroom: { id: 2.5 } }) },
      'no id and chatroom.id',
    ],
    [
      'an id is negative',
      { status: 200, body: JSON.stringify({ id: -1, chatroom: { id: 2 } }) },
      'no id and chatroom.id',
    ],
    [
      'an id is absurdly large',
      { status: 200, body: JSON.stringify({ id: 1e15, chatroom: { id: 2 } }) },
      'no id and chatroom.id',
    ],
  ];
  for (const [what, reply, reason] of failures) {
    it(`answers why when ${what}, for Settings to ask the streamer`, async () => {
      const { fetch } = scriptedFetch(() => reply);
      expect(await lookUpChannelIds(fetch, SITE, 'streamer')).toEqual({
        ok: false,
        error: expect.stringContaining(reason),
      });
    });
  }
});
