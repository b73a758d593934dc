import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createAppLiveSocket } from '../../../../electron/app/app-live-socket';
import { openSettings } from '../../../../electron/app/settings';
import { FakeTime, FakeTransports, scriptedFetch, settle } from '../live-socket/live-socket-fixtures';
import { tempDir } from '../../../helpers/temp-dir';

const URLS = { pusherUrl: 'wss://stand-in', webUrl: 'https://web.example', siteUrl: 'https://site.example' };

function setup(lookup: { status: number; body: string } = { status: 403, body: '<html>' }) {
  const settings = openSettings(tempDir('greenroom-app-live-'), { randomBytes, log: () => {} });
  // Off by default; these tests follow the connection once the streamer switched it on.
  settings.setLiveSocket({ ...settings.values().liveSocket, enabled: true });
  const time = new FakeTime();
  const fake = new FakeTransports();
  const { fetch, calls } = scriptedFetch((url) =>
    url.includes('/api/v2/channels/') ? lookup : { status: 200, body: JSON.stringify({ data: { connections: [] } }) },
  );
  let userId: number | null = null;
  const userListeners: (() => void)[] = [];
  const live = createAppLiveSocket({
    urls: () => URLS,
    settings,
    userId: () => userId,
    onUserChange: (listener) => {
      userListeners.push(listener);
      return () => {};
    },
    channelSlug: () => Promise.resolve('streamer'),
    clock: { now: time.now },
    setTimer: time.setTimer,
    log: () => {},
    fetch,
    transports: fake.transports,
  });
  const signIn = async (id: number | null) => {
    userId = id;
    userListeners.forEach((listener) => listener());
    await settle();
    await settle();
  };
  return { settings, live, fake, calls, signIn };
}

describe('createAppLiveSocket', () => {
  it('stays off until a Kick account signs in, and goes off when it signs out', async () => {
    const { live, fake, signIn } = setup({ status: 200, body: JSON.stringify({ id: 9, chatroom: { id: 8 } }) });
    live.start();
    await settle();
    expect(live.health().state).toBe('off');
    await signIn(5);
    expect(fake.last.channels).toContain('chatrooms.8.v2');
    await signIn(null);
    expect(live.health().state).toBe('off');
    expect(fake.last.closed).toBe(true);
  });

  it('keeps looked-up ids for the account, and does not use them for another', async () => {
    const { live, settings, calls, signIn } = setup({
      status: 200,
      body: JSON.stringify({ id: 9, chatroom: { id: 8 } }),
    });
    live.start();
    await signIn(5);
    expect(settings.values().liveSocket).toMatchObject({ channelId: 9, chatroomId: 8, idsFor: 5 });
    await signIn(6);
    expect(calls.filter((c) => c.url.includes('/api/v2/channels/'))).toHaveLength(2);
    expect(settings.values().liveSocket.idsFor).toBe(6);
  });

  it('asks for the ids when the lookup is turned away, and claims the entered ones for the account', async () => {
    const { live, settings, fake, signIn } = setup();
    live.start();
    await signIn(5);
    expect(live.health().state).toBe('needs-ids');
    expect(fake.sessions).toHaveLength(0);
    settings.update({ liveSocket: { channelId: 11, chatroomId: 12 } });
    await settle();
    await settle();
    expect(fake.last.channels).toEqual(['chatrooms.12.v2', 'chatrooms.12', 'chatroom_12', 'channel.11', 'channel_11']);
    expect(settings.values().liveSocket.idsFor).toBe(5);
  });

  it('follows the switch without a restart', async () => {
    const { live, settings, fake, signIn } = setup({
      status: 200,
      body: JSON.stringify({ id: 9, chatroom: { id: 8 } }),
    });
    live.start();
    await signIn(5);
    settings.update({ liveSocket: { enabled: false } });
    expect(live.health().state).toBe('off');
    expect(fake.last.closed).toBe(true);
    settings.update({ liveSocket: { enabled: true } });
    await settle();
    await settle();
    expect(fake.sessions).toHaveLength(2);
  });
});
