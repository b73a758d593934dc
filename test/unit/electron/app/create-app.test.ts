import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { EventPayloads } from '../../../../shared/ipc-contract';
import { resolveConfig } from '../../../../electron/app/config';
import { createApp, type GreenroomApp } from '../../../../electron/app/create-app';
import { openSettings, type SettingsStore } from '../../../../electron/app/settings';
import { AdjustableClock } from '../../../../electron/core/clock';
import { MemorySecretStore } from '../../../../electron/secrets/secret-store';
import type { KickEvent } from '../../../../electron/webhooks/events/types';
import { createFakeWebhookPort, type FakeWebhookPort, seedFakeWebhookJournal } from './fake-webhook-port';

let n = 0;
function chat(content: string): KickEvent {
  const user = {
    is_anonymous: false,
    user_id: 5,
    username: 'lunarfox',
    is_verified: null,
    profile_picture: null,
    channel_slug: null,
  };
  return {
    kind: 'known',
    type: 'chat.message.sent',
    version: 1,
    messageId: `w${++n}`,
    subscriptionId: 's',
    timestamp: '2026-03-01T12:00:00Z',
    receivedAtMs: 0,
    payload: { message_id: `m${n}`, broadcaster: user, sender: user, content, emotes: null },
  };
}

function follow(): KickEvent {
  const user = {
    is_anonymous: false,
    user_id: 6,
    username: 'echo_elk',
    is_verified: false,
    profile_picture: null,
    channel_slug: null,
  };
  return {
    kind: 'known',
    type: 'channel.followed',
    version: 1,
    messageId: `w${++n}`,
    subscriptionId: 's',
    timestamp: '2026-03-01T12:00:00Z',
    receivedAtMs: 0,
    payload: { broadcaster: user, follower: user },
  };
}

describe('createApp on Kick, with a fake webhook side', () => {
  let dir: string;
  let settings: SettingsStore;
  let port: FakeWebhookPort;
  let app: GreenroomApp;
  const kickEvents: EventPayloads['kick:event'][] = [];
  const logs: string[] = [];

  async function build(earlier: KickEvent[] = []): Promise<GreenroomApp> {
    // What an earlier run accepted is in the data dir; the fake restores only that.
    await seedFakeWebhookJournal(dir, earlier);
    port = createFakeWebhookPort(dir);
    const secretStore = Object.assign(new MemorySecretStore(), { backend: 'node-aes-gcm', degraded: true });
    const config = resolveConfig({
      env: { GREENROOM_KICK_API_URL: 'http://127.0.0.1:9', GREENROOM_KICK_AUTH_URL: 'http://127.0.0.1:9' },
      settings: settings.values(),
      storedClientSecret: 'secret',
      dataDir: dir,
    });
    app = await createApp(config, {
      clock: new AdjustableClock(),
      openExternal: () => Promise.reject(new Error('no browser here')),
      secretStore,
      webhooks: (deps) => {
        port.deps = deps;
        return port;
      },
      log: (line) => logs.push(line),
      dataDir: dir,
      settings,
      dockUrl: () => 'http://127.0.0.1:7531/?token=t',
    });
    app.events.on('kick:event', (e) => kickEvents.push(e));
    return app;
  }

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'greenroom-app-unit-'));
    settings = openSettings(dir, { randomBytes });
    settings.setClientId('01CLIENT');
    kickEvents.length = 0;
    logs.length = 0;
  });
  afterEach(async () => {
    await app.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('restores chat and the feed from the journal without announcing them, then starts webhooks', async () => {
    await build([chat('before the restart'), follow(), chat('still here')]);
    await app.start();
    expect(port.calls).toEqual(['restore', 'start']);
    expect(kickEvents).toEqual([]);
    const history = await app.router.invoke('chat:history', []);
    expect(history).toMatchObject({ ok: true, value: [{ content: 'before the restart' }, { content: 'still here' }] });
    expect(await app.router.invoke('feed:history', [])).toMatchObject({ ok: true, value: [{ kind: 'follow' }] });
  });

  it('turns live bus events into kick:event, once per message', async () => {
    await build();
    await app.start();
    const message = chat('live!');
    port.publish(message);
    port.publish(message);
    port.publish(follow());
    expect(kickEvents.map((e) => e.kind)).toEqual(['chat', 'feed']);
    const item = kickEvents[1]!.kind === 'feed' ? kickEvents[1]!.item : null;
    expect(app.notificationsFor(item!)).toEqual({ title: 'New follower', body: 'echo_elk followed', itemId: item!.id });
  });

  it('gives the webhook side what it needs, and merges its health with the mode and the secret store', async () => {
    await build();
    const pushed: EventPayloads['health:changed'][] = [];
    app.events.on('health:changed', (h) => pushed.push(h));
    await app.start();
    expect(port.deps).toMatchObject({ dataDir: dir, sandbox: null, config: { mode: 'kick' } });
    expect(port.deps!.broadcasterUserId()).toBeNull();
    expect(port.deps!.wantedEvents()).toHaveLength(10);
    port.setHealth({
      tunnel: { state: 'up', url: 'https://greenroomx.loca.lt' },
      webhookUrl: 'https://greenroomx.loca.lt/kick/webhook',
    });
    // Pushes are paced (health-push.ts): a change at start, such as the history opening, can hold this one
    // back for an interval.
    await vi.waitFor(() =>
      expect(pushed.at(-1)).toMatchObject({
        mode: 'kick',
        tunnel: { state: 'up' },
        webhookUrl: 'https://greenroomx.loca.lt/kick/webhook',
        secretStore: { backend: 'node-aes-gcm', degraded: true },
      }),
    );
    const snapshot = app.snapshot();
    expect(snapshot).toMatchObject({
      mode: 'kick',
      sandboxNotice: null,
      dockUrl: 'http://127.0.0.1:7531/?token=t',
      settings: { clientId: '01CLIENT', hasClientSecret: true, emoteHost: 'https://files.kick.com' },
    });
    expect(app.sandbox).toBeUndefined();
  });

  it('keeps the client secret out of the settings and the panel', async () => {
    await build();
    const result = await app.router.invoke('settings:set-credentials', [
      { clientId: '01NEW', clientSecret: 'hunter2-secret' },
    ]);
    expect(result).toMatchObject({ ok: true, value: { clientId: '01NEW', hasClientSecret: true } });
    expect(JSON.stringify(result)).not.toContain('hunter2');
    expect(JSON.stringify(app.snapshot())).not.toContain('hunter2');
    expect(JSON.stringify(settings.values())).not.toContain('hunter2');
  });

  it('answers requests that need a signed-in streamer with NotSignedIn', async () => {
    await build();
    await app.start();
    expect(await app.router.invoke('mod:timeout', [{ userId: 9, minutes: 1 }])).toMatchObject({
      ok: false,
      error: { code: 'NotSignedIn' },
    });
    expect(await app.router.invoke('chat:send', [{ content: 'hi', as: 'user' }])).toMatchObject({
      ok: false,
      error: { code: 'NotSignedIn' },
    });
  });

  it('stops once, however often it is asked', async () => {
    await build();
    await app.start();
    await Promise.all([app.stop(), app.stop()]);
    expect(port.calls.filter((c) => c === 'stop')).toHaveLength(1);
    // Nothing of the app is left listening on the stopped port.
    expect(port.listenerCount()).toBe(0);
  });
});
