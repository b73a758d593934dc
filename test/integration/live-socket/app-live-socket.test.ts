/**
 * Kick's live chat connection in the built app on the embedded sandbox, which plays the socket: it connects once
 * the streamer signs in, a chat line arrives on the socket with its webhook's message id, the switch and
 * the one-time id entry go through `settings:update` as the panel sends them, and a discovery offering only
 * Centrifugo still brings chat at once.
 */
import { describe, expect, it } from 'vitest';
import type { LiveEvent } from '../../../shared/kick/live-events';
import type { LiveSocketHealthView } from '../../../shared/views';
import { channelIdOf, chatroomIdOf } from '../../../sandbox/live-socket/ids';
import { STREAMER_USER_ID } from '../../../sandbox/world';
import { callAdmin, untilSocketListening } from '../../helpers/sandbox';
import { browser, call, fx, useSetup } from '../app/create-app-sandbox-mode-fixtures';

useSetup({ liveSocket: true });

const live = (): LiveSocketHealthView => fx.app.liveSocket.health();

/** Resolves when the connection's health satisfies `check` (re-read at each health push). */
function until(check: (view: LiveSocketHealthView) => boolean): Promise<LiveSocketHealthView> {
  return new Promise((resolve) => {
    const test = () => (check(live()) ? (off(), resolve(live())) : undefined);
    const off = fx.app.events.on('health:changed', test);
    test();
  });
}

async function admin(method: string, path: string, body?: unknown) {
  const res = await callAdmin(fx.sandbox, method, path, { body });
  expect(res.status, res.text).toBe(200);
  return res;
}

function nextChat(content: string): Promise<LiveEvent> {
  return new Promise((resolve) => {
    const off = fx.app.liveSocket.onEvent((event) => {
      if (event.type === 'chat.message' && event.content === content) {
        off();
        resolve(event);
      }
    });
  });
}

async function refusal(patch: unknown): Promise<{ code: string; message: string }> {
  const result = await fx.app.router.invoke('settings:update', [patch]);
  expect(result.ok).toBe(false);
  return (result as { ok: false; error: { code: string; message: string } }).error;
}

describe("Kick's live chat connection in the app", () => {
  it('is off until a Kick account signs in, then connects by itself with ids it looked up', async () => {
    expect(live().state).toBe('off');
    await call('auth:start-login', {});
    await browser.settled();
    const view = await until((v) => v.state === 'connected');
    expect(view).toMatchObject({ provider: 'pusher', keySource: 'discovered' });
    expect(view.channels).toContain(`chatrooms.${chatroomIdOf(STREAMER_USER_ID)}.v2`);
    // Looked up once and kept for next time.
    expect((await call('settings:get')).liveSocket).toEqual({
      enabled: true,
      channelId: channelIdOf(STREAMER_USER_ID),
      chatroomId: chatroomIdOf(STREAMER_USER_ID),
    });
  });

  it("brings a chat line with the same message id as its webhook's", async () => {
    const arrived = nextChat('typed just now');
    const res = await admin('POST', '/trigger/chat.message.sent', { overrides: { content: 'typed just now' } });
    const webhookId = (res.json as { events: { payload: { message_id: string } }[] }).events[0]!.payload.message_id;
    expect(await arrived).toMatchObject({
      type: 'chat.message',
      messageId: webhookId,
      content: 'typed just now',
      createdAt: expect.any(String),
    });
    expect(live().lastFrameAtMs).toBeGreaterThan(0);
  });

  it('reconnects by itself after 4200 and after a cut connection', async () => {
    for (const code of [4200, 'cut']) {
      const before = live().counters.reconnects;
      await admin('POST', '/live-socket/drop', { code });
      await until((v) => v.counters.reconnects > before && v.state === 'connected');
    }
    const arrived = nextChat('after the drops');
    await admin('POST', '/trigger/chat.message.sent', { overrides: { content: 'after the drops' } });
    await arrived;
  });

  it('counts an unknown event and unknown fields without losing the line', async () => {
    // Socket-only frames: sent once the sandbox has the app's subscriptions, not merely its connection.
    await untilSocketListening(fx.sandbox);
    const unknownBefore = live().counters.unknown;
    await admin('POST', '/live-socket/unknown-event', { event: 'App\\Events\\FromTheFuture' });
    const arrived = nextChat('with extra fields');
    await admin('POST', '/live-socket/unknown-fields', { content: 'with extra fields' });
    await arrived;
    expect(live().counters.unknown).toBe(unknownBefore + 1);
  });

  it('turns off and on from Settings without a restart', async () => {
    await call('settings:update', { liveSocket: { enabled: false } });
    expect(live().state).toBe('off');
    await call('settings:update', { liveSocket: { enabled: true } });
    await until((v) => v.state === 'connected');
  });

  it('connects over Centrifugo when discovery offers only that, and chat still arrives at once', async () => {
    await admin('POST', '/live-socket/settings', { providers: ['centrifugo'] });
    await admin('POST', '/live-socket/drop', { code: 4200 });
    await until((v) => v.state === 'connected' && v.provider === 'centrifugo');
    const arrived = nextChat('over centrifugo');
    await admin('POST', '/trigger/chat.message.sent', { overrides: { content: 'over centrifugo' } });
    await arrived;
    await admin('POST', '/live-socket/settings', { providers: ['pusher', 'centrifugo'] });
  });

  it('refuses ids out of range, or one without the other, at the field, and changes nothing', async () => {
    const before = (await call('settings:get')).liveSocket;
    const hostile: [unknown, string][] = [
      [{ channelId: 0, chatroomId: 5 }, '1 to 999,999,999,999'],
      [{ channelId: 1e13, chatroomId: 5 }, '1 to 999,999,999,999'],
      [{ channelId: 1.5, chatroomId: 5 }, '1 to 999,999,999,999'],
      [{ channelId: '12', chatroomId: 5 }, 'channelId'],
      [{ channelId: 12 }, 'together'],
      [{ enabled: true, idsFor: 1 }, 'idsFor'],
    ];
    for (const [liveSocket, said] of hostile) {
      const error = await refusal({ liveSocket });
      expect(error.code).toBe('InvalidArgument');
      expect(error.message).toContain(said);
    }
    // The panel finds the field by its path, never by the message.
    const fields = (await fx.app.router.invoke('settings:update', [
      { liveSocket: { channelId: 0, chatroomId: 5 } },
    ])) as {
      ok: false;
      error: { details?: { fields?: string[] } };
    };
    expect(fields.error.details?.fields).toEqual(['liveSocket.channelId']);
    expect((await call('settings:get')).liveSocket).toEqual(before);
  });

  it('asks for the ids when the lookup is blocked, and connects once they are entered', async () => {
    await admin('POST', '/live-socket/settings', { lookup: 'cloudflare' });
    await call('settings:update', { liveSocket: { enabled: false, channelId: null, chatroomId: null } });
    await call('settings:update', { liveSocket: { enabled: true } });
    const asking = await until((v) => v.state === 'needs-ids');
    expect(asking.problem).toContain('HTTP 403');
    await call('settings:update', {
      liveSocket: { channelId: channelIdOf(STREAMER_USER_ID), chatroomId: chatroomIdOf(STREAMER_USER_ID) },
    });
    await until((v) => v.state === 'connected');
    const arrived = nextChat('with entered ids');
    await admin('POST', '/trigger/chat.message.sent', { overrides: { content: 'with entered ids' } });
    await arrived;
  });
});
