/**
 * The sandbox plays Kick's live socket for third-party clients: the real pusher-js and centrifuge, unchanged,
 * connect over loopback, subscribe to the chatroom and get a chat line the world produced, at once, while its
 * webhook waits in the queue.
 */
import type { PublicationContext } from 'centrifuge';
import { describe, expect, it } from 'vitest';
import { channelIdOf, chatroomIdOf } from '../../../sandbox/live-socket/ids';
import { STREAMER_USER_ID } from '../../../sandbox/world';
import { call, mintAppToken, mintUserToken } from '../../helpers/sandbox';
import {
  CHAT_EVENT,
  CHATROOM,
  admin,
  centrifugeClient,
  fx,
  once,
  PUSHER_PATH,
  pusherClient,
  rawClient,
  send,
  triggerChat,
  useLiveSandbox,
} from './live-socket-fixtures';

useLiveSandbox();

describe('the sandbox live socket with real clients', () => {
  it('pusher-js connects, subscribes and gets a chat line as an object', async () => {
    const pusher = pusherClient();
    const channel = pusher.subscribe(CHATROOM);
    await once((cb) => channel.bind('pusher:subscription_succeeded', cb));
    const got = once<Record<string, any>>((cb) => channel.bind(CHAT_EVENT, cb));
    const id = await triggerChat('hello from the world');
    const data = await got;
    expect(data.id).toBe(id);
    expect(data.content).toBe('hello from the world');
    expect(data.chatroom_id).toBe(chatroomIdOf(STREAMER_USER_ID));
    expect(data.created_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+00:00$/);
    expect(data.sender.identity.color).toMatch(/^#/);
  });

  it("puts a line sent through Kick's chat API on the socket, under the API's message id", async () => {
    const pusher = pusherClient();
    const channel = pusher.subscribe(CHATROOM);
    await once((cb) => channel.bind('pusher:subscription_succeeded', cb));
    const got = once<Record<string, any>>((cb) => channel.bind(CHAT_EVENT, cb));
    const sent = await call(fx.sandbox.urls.api, 'POST', '/public/v1/chat', {
      token: mintUserToken(fx.sandbox),
      body: { type: 'bot', content: 'the bot speaks' },
    });
    expect(sent.status, sent.text).toBe(200);
    const data = await got;
    expect(data).toMatchObject({
      id: sent.json.data.message_id,
      content: 'the bot speaks',
      sender: { username: 'greenroom_bot' },
    });
  });

  it('sends data as a JSON string inside the frame, as Kick does', async () => {
    const raw = await rawClient(PUSHER_PATH);
    const hello = JSON.parse(await raw.next()) as { event: string; data: string };
    expect(hello.event).toBe('pusher:connection_established');
    expect(typeof hello.data).toBe('string');
    expect(JSON.parse(hello.data)).toMatchObject({
      activity_timeout: 120,
      socket_id: expect.stringMatching(/^\d+\.\d+$/),
    });
    send(raw, { event: 'pusher:subscribe', data: { auth: '', channel: CHATROOM } });
    const ok = await raw.nextEvent('pusher_internal:subscription_succeeded');
    expect(ok).toEqual({ event: 'pusher_internal:subscription_succeeded', data: '{}', channel: CHATROOM });
    const id = await triggerChat('raw bytes');
    const frame = await raw.nextEvent(CHAT_EVENT);
    expect(frame.channel).toBe(CHATROOM);
    expect(typeof frame.data).toBe('string');
    expect(JSON.parse(frame.data as string).id).toBe(id);
  });

  it('centrifuge connects with a minted token, subscribes and gets the same envelope', async () => {
    const client = await centrifugeClient();
    const sub = client.newSubscription(CHATROOM);
    const subscribed = once((cb) => sub.on('subscribed', cb));
    sub.subscribe();
    client.connect();
    await subscribed;
    const got = once<PublicationContext>((cb) => sub.on('publication', cb));
    const id = await triggerChat('over centrifugo');
    const pub = await got;
    expect(pub.data.event).toBe(CHAT_EVENT);
    expect(JSON.parse(pub.data.data as string)).toMatchObject({ id, content: 'over centrifugo' });
  });

  it('puts the chat line on the socket at once and its webhook after the queue delay', async () => {
    fx.sandbox.ctx.app.webhookUrl = 'http://127.0.0.1:9/hook';
    const sub = await call(fx.sandbox.urls.api, 'POST', '/public/v1/events/subscriptions', {
      token: mintAppToken(fx.sandbox),
      body: {
        events: [{ name: 'chat.message.sent', version: 1 }],
        method: 'webhook',
        broadcaster_user_id: STREAMER_USER_ID,
      },
    });
    expect(sub.status).toBe(200);
    const set = await admin('POST', '/live-socket/settings', { webhook_delay_seconds: 600 });
    expect(set.json.webhook_delay_seconds).toBe(600);
    const raw = await rawClient(PUSHER_PATH);
    send(raw, { event: 'pusher:subscribe', data: { channel: CHATROOM } });
    await raw.nextEvent('pusher_internal:subscription_succeeded');
    const now = fx.sandbox.ctx.clock.now();
    await triggerChat('ten minutes behind');
    expect(JSON.parse((await raw.nextEvent(CHAT_EVENT)).data as string).content).toBe('ten minutes behind');
    const pending = fx.sandbox.delivery.pendingMessages();
    expect(pending).toHaveLength(1);
    expect(pending[0]!.dueAtMs - now).toBeGreaterThanOrEqual(600_000);
    expect(pending[0]!.dueAtMs - now).toBeLessThan(601_000);
  });

  it('discovery offers both providers, then only Centrifugo when told', async () => {
    const body = {
      client: { id: 'c1', type: 'web' },
      capabilities: { accepted_providers: [{ provider: 'pusher' }, { provider: 'centrifugo' }] },
    };
    const path = `/api/v1/realtime/channels/${channelIdOf(STREAMER_USER_ID)}/chat/connection`;
    const both = await call(fx.sandbox.urls.web, 'POST', path, { body });
    expect(both.status).toBe(200);
    expect(both.json.data.connections).toEqual([
      { provider: 'pusher', credentials: { app_key: '32cbd69e4b950bf97679', cluster: 'us2' } },
      { provider: 'centrifugo', credentials: { url: `${fx.sandbox.urls.socket}/connection/websocket` } },
    ]);
    await admin('POST', '/live-socket/settings', { providers: ['centrifugo'] });
    const only = await call(fx.sandbox.urls.web, 'POST', path, { body });
    expect((only.json.data.connections as { provider: string }[]).map((c) => c.provider)).toEqual(['centrifugo']);
    const unknown = await call(fx.sandbox.urls.web, 'POST', '/api/v1/realtime/channels/123/chat/connection', { body });
    expect(unknown.status).toBe(404);
  });

  it('looks a channel up by slug, or answers as Cloudflare when told', async () => {
    const found = await call(fx.sandbox.urls.web, 'GET', '/api/v2/channels/sandbox-streamer');
    expect(found.status).toBe(200);
    expect(found.json).toMatchObject({
      id: channelIdOf(STREAMER_USER_ID),
      user_id: STREAMER_USER_ID,
      chatroom: { id: chatroomIdOf(STREAMER_USER_ID) },
      user: { username: 'sandbox_streamer' },
      livestream: null,
    });
    expect((await call(fx.sandbox.urls.web, 'GET', '/api/v2/channels/nobody-here')).status).toBe(404);
    await admin('POST', '/live-socket/settings', { lookup: 'cloudflare' });
    const blocked = await call(fx.sandbox.urls.web, 'GET', '/api/v2/channels/sandbox-streamer');
    expect(blocked.status).toBe(403);
    expect(blocked.headers['content-type']).toMatch(/text\/html/);
  });
});
