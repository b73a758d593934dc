/**
 * The admin API's live-socket triggers, seen by real clients: drops by close code and a cut connection
 * (pusher-js and centrifuge reconnect by themselves, or stop on 4001), a host, frames with unknown fields or
 * an unknown event, and moderators' deletions, bans and unbans going out on the socket.
 */
import type { PublicationContext } from 'centrifuge';
import { describe, expect, it } from 'vitest';
import type Pusher from 'pusher-js';
import { MODERATOR_USER_ID, STREAMER_USER_ID } from '../../../sandbox/world';
import { call, mintUserToken } from '../../helpers/sandbox';
import {
  admin,
  CHAT_EVENT,
  CHATROOM,
  centrifugeClient,
  fx,
  once,
  pusherClient,
  rawPusher,
  send,
  triggerChat,
  useLiveSandbox,
} from './live-socket-fixtures';

useLiveSandbox();

const EVENTS = 'App\\Events\\';

async function subscribedPusher(): Promise<{ pusher: Pusher; channel: ReturnType<Pusher['subscribe']> }> {
  const pusher = pusherClient();
  const channel = pusher.subscribe(CHATROOM);
  await once((cb) => channel.bind('pusher:subscription_succeeded', cb));
  return { pusher, channel };
}

/** Waits for pusher-js to be connected again on a new socket and subscribed again. */
async function reconnected(pusher: Pusher, channel: ReturnType<Pusher['subscribe']>): Promise<void> {
  await once((cb) => channel.bind('pusher:subscription_succeeded', cb));
  expect(pusher.connection.state).toBe('connected');
}

describe('live socket drops', () => {
  for (const code of [4200, 4201, 'cut'] as const) {
    it(`pusher-js comes back by itself after ${code} and gets the next chat line`, async () => {
      const { pusher, channel } = await subscribedPusher();
      const firstSocket = pusher.connection.socket_id;
      const back = reconnected(pusher, channel);
      const dropped = await admin('POST', '/live-socket/drop', { code });
      expect(dropped.json).toEqual({ dropped: 1 });
      await back;
      expect(pusher.connection.socket_id).not.toBe(firstSocket);
      const got = once<{ content: string }>((cb) => channel.bind(CHAT_EVENT, cb));
      await triggerChat(`after ${code}`);
      expect((await got).content).toBe(`after ${code}`);
    });
  }

  it('pusher-js stops after 4001, having been told why', async () => {
    const { pusher } = await subscribedPusher();
    const error = once<{ data?: { code?: number } }>((cb) => pusher.connection.bind('error', cb));
    const stopped = once((cb) => pusher.connection.bind('disconnected', cb));
    await admin('POST', '/live-socket/drop', { code: 4001 });
    await stopped;
    expect(pusher.connection.state).toBe('disconnected');
    expect((await error).data?.code).toBe(4001);
  });

  it('centrifuge comes back by itself after 4200 and gets the next chat line', async () => {
    const client = await centrifugeClient();
    const sub = client.newSubscription(CHATROOM);
    sub.subscribe();
    client.connect();
    await once((cb) => sub.once('subscribed', cb));
    const back = once((cb) => sub.once('subscribed', cb));
    expect((await admin('POST', '/live-socket/drop', { code: 4200, provider: 'centrifugo' })).json).toEqual({
      dropped: 1,
    });
    await back;
    const got = once<PublicationContext>((cb) => sub.once('publication', cb));
    await triggerChat('centrifugo is back');
    expect(JSON.parse((await got).data.data as string).content).toBe('centrifugo is back');
  });

  it('refuses a drop code it does not play, and drops nothing', async () => {
    await subscribedPusher();
    const res = await admin('POST', '/live-socket/drop', { code: 1000 });
    expect(res.status).toBe(400);
    expect(res.json.error).toMatch(/^code: must be one of 4200, 4201, 4001, cut/);
    expect(fx.sandbox.live.hub.sessions.size).toBe(1);
  });
});

describe('live socket triggers', () => {
  it('a host arrives as StreamHostEvent and its twin StreamHostedEvent', async () => {
    const { channel } = await subscribedPusher();
    const host = once<Record<string, any>>((cb) => channel.bind(`${EVENTS}StreamHostEvent`, cb));
    const hosted = once<Record<string, any>>((cb) => channel.bind(`${EVENTS}StreamHostedEvent`, cb));
    const res = await admin('POST', '/live-socket/host', { host_username: 'xqc_sb', viewers: 120, message: 'hi' });
    expect(res.status, res.text).toBe(200);
    expect(await host).toMatchObject({ host_username: 'xqc_sb', number_viewers: 120, optional_message: 'hi' });
    expect(await hosted).toMatchObject({ message: { numberOfViewers: 120 }, user: { username: 'xqc_sb' } });
  });

  it("the raid scenario starts with a host on the socket, bringing the raider's viewers", async () => {
    const { channel } = await subscribedPusher();
    const host = once<Record<string, any>>((cb) => channel.bind(`${EVENTS}StreamHostEvent`, cb));
    expect((await admin('POST', '/scenarios/raid', { immediate: true })).status).toBe(200);
    const data = await host;
    const raider = fx.sandbox.ctx.state.userByName(data.host_username as string)!;
    expect(data.number_viewers).toBe(fx.sandbox.ctx.state.channels.get(raider.userId)!.viewerCount);
  });

  it('a frame with unknown fields still reaches pusher-js, and its chat line is in the world', async () => {
    const raw = await rawPusher();
    send(raw, { event: 'pusher:subscribe', data: { channel: CHATROOM } });
    await raw.nextEvent('pusher_internal:subscription_succeeded');
    const res = await admin('POST', '/live-socket/unknown-fields', { content: 'from the future' });
    const frame = await raw.nextEvent(CHAT_EVENT);
    expect(frame.sandbox_envelope_extra).toBeDefined();
    const data = JSON.parse(frame.data as string);
    expect(data).toMatchObject({ id: res.json.message_id, content: 'from the future' });
    expect(data.sandbox_future_field).toBeDefined();
    expect(fx.sandbox.ctx.state.chatMessages.get(res.json.message_id as string)?.content).toBe('from the future');
  });

  it('an unknown event name goes out on the chatroom', async () => {
    const raw = await rawPusher();
    send(raw, { event: 'pusher:subscribe', data: { channel: CHATROOM } });
    await raw.nextEvent('pusher_internal:subscription_succeeded');
    await admin('POST', '/live-socket/unknown-event', { event: 'App\\Events\\NeverHeardOfIt' });
    const frame = await raw.nextEvent('App\\Events\\NeverHeardOfIt');
    expect(frame.channel).toBe(CHATROOM);
  });

  it("a moderator's delete, timeout and lifted timeout go out on the socket", async () => {
    const raw = await rawPusher();
    send(raw, { event: 'pusher:subscribe', data: { channel: CHATROOM } });
    await raw.nextEvent('pusher_internal:subscription_succeeded');
    const id = await triggerChat('spam spam');
    const token = mintUserToken(fx.sandbox, undefined, MODERATOR_USER_ID);
    expect((await call(fx.sandbox.urls.api, 'DELETE', `/public/v1/chat/${id}`, { token })).status).toBe(204);
    const deleted = JSON.parse((await raw.nextEvent(`${EVENTS}MessageDeletedEvent`)).data as string);
    expect(deleted.message.id).toBe(id);
    const target = fx.sandbox.ctx.state.chatMessages.get(id)!.senderUserId;
    const ban = { broadcaster_user_id: STREAMER_USER_ID, user_id: target };
    const timeout = await call(fx.sandbox.urls.api, 'POST', '/public/v1/moderation/bans', {
      token,
      body: { ...ban, duration: 10 },
    });
    expect(timeout.status, timeout.text).toBe(200);
    const banned = JSON.parse((await raw.nextEvent(`${EVENTS}UserBannedEvent`)).data as string);
    expect(banned).toMatchObject({
      user: { id: target },
      banned_by: { id: MODERATOR_USER_ID },
      permanent: false,
      duration: 10,
    });
    expect((await call(fx.sandbox.urls.api, 'DELETE', '/public/v1/moderation/bans', { token, body: ban })).status).toBe(
      200,
    );
    const unbanned = JSON.parse((await raw.nextEvent(`${EVENTS}UserUnbannedEvent`)).data as string);
    expect(unbanned).toMatchObject({ user: { id: target }, unbanned_by: { id: MODERATOR_USER_ID }, permanent: false });
  });

  it('goes back to its default settings when the sandbox is reset', async () => {
    const set = { webhook_delay_seconds: 600, providers: ['centrifugo'], lookup: 'cloudflare' };
    expect((await admin('POST', '/live-socket/settings', set)).status).toBe(200);
    await admin('POST', '/live-socket/chatroom', { emotes_mode: { enabled: true } });
    fx.sandbox.reset();
    const now = await admin('GET', '/live-socket');
    expect(now.json).toMatchObject({
      webhook_delay_seconds: 0,
      providers: ['pusher', 'centrifugo'],
      lookup: 'answers',
    });
    expect(fx.sandbox.live.hub.modesOf(STREAMER_USER_ID).emotes_mode.enabled).toBe(false);
  });

  it('refuses a bad setting whole, changing nothing', async () => {
    const res = await admin('POST', '/live-socket/settings', {
      webhook_delay_seconds: 60,
      providers: ['smoke-signals'],
    });
    expect(res.status).toBe(400);
    expect(res.json.error).toMatch(/^providers: /);
    const now = await admin('GET', '/live-socket');
    expect(now.json).toMatchObject({
      webhook_delay_seconds: 0,
      providers: ['pusher', 'centrifugo'],
      lookup: 'answers',
    });
  });
});
