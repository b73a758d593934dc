/**
 * Sandbox mode remembers ([sandbox notes](../../../docs/sandbox.md#what-the-saved-world-keeps)): an app on the
 * embedded sandbox is stopped and started again on the same data dir, and the streamer is still signed in,
 * with the same rewards and subscriptions, without a second consent; "Reset the sandbox" then signs out
 * and puts the seeded world back, and that too survives a restart. Through `router.invoke`, as the panel.
 */
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveConfig } from '../../../electron/app/config';
import { createApp } from '../../../electron/app/create-app';
import { openSettings } from '../../../electron/app/settings';
import { systemClock } from '../../../electron/core/clock';
import { MemorySecretStore } from '../../../electron/secrets/secret-store';
import { SANDBOX_WORLD_FILE } from '../../../sandbox/persist-file';
import { STREAMER_USER_ID } from '../../../sandbox/world';
import { startSandbox } from '../../helpers/sandbox';
import { createFakeWebhookPort } from '../../unit/electron/app/fake-webhook-port';
import { consentBrowser } from './create-app-fixtures';
import { call, type StartedApp, startSandboxApp } from './sandbox-remembers-fixtures';

const browser = consentBrowser(STREAMER_USER_ID);
const POLL = { timeout: 5000 };

describe('an app in sandbox mode, restarted on the same data dir', () => {
  let dir: string;
  let run: StartedApp | null = null;
  let rewardId: string;
  let tokens: string[];

  const restart = async (): Promise<StartedApp> => {
    await run?.app.stop();
    run = await startSandboxApp(dir, (url) => browser.open(url));
    return run;
  };

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'greenroom-sandbox-remembers-'));
  });

  afterAll(async () => {
    await run?.app.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('signs in and creates a reward', async () => {
    const { app } = await restart();
    const account = await call(app, 'auth:start-login', {});
    await browser.settled();
    expect(account).toMatchObject({ signedIn: true, userId: STREAMER_USER_ID });
    rewardId = (await call(app, 'rewards:create', { title: 'Hydrate', cost: 250 })).id;
    await call(app, 'stream:update', { title: 'Day two of the sandbox' });
    const state = app.sandbox!.ctx.state;
    tokens = [...state.accessTokens.values(), ...state.refreshTokens.values()].map((t) => t.token);
    expect(tokens.length).toBeGreaterThanOrEqual(2);
  });

  it('keeps the world on disk at stop, with no token in it', async () => {
    await run!.app.stop();
    const saved = readFileSync(join(dir, SANDBOX_WORLD_FILE), 'utf8');
    expect(saved).toContain('Hydrate');
    for (const token of tokens) {
      expect(saved).not.toContain(token);
    }
  });

  it('is still signed in after the restart, with the same reward, and asks for no consent', async () => {
    const consents = browser.pages.length;
    const { app, notices } = await restart();
    expect(notices).toEqual([]);
    await expect
      .poll(async () => (await call(app, 'app:snapshot')).account, POLL)
      .toMatchObject({
        signedIn: true,
        userId: STREAMER_USER_ID,
        accountLabel: 'sandbox_streamer',
      });
    const rewards = await call(app, 'rewards:list');
    expect(rewards.find((r) => r.id === rewardId)).toMatchObject({ title: 'Hydrate', cost: 250, canManage: true });
    // A call that needs the user token works: the sandbox knows the token the app restored.
    expect((await call(app, 'chat:send', { content: 'back again', as: 'user' })).is_sent).toBe(true);
    expect(browser.pages.length).toBe(consents);
    expect((await call(app, 'stream:info'))?.stream_title).toBe('Day two of the sandbox');
  });

  it('"Reset the sandbox" signs out and puts the seeded world back', async () => {
    const { app } = run!;
    expect(await call(app, 'sandbox:reset')).toBeNull();
    expect((await call(app, 'app:snapshot')).account).toMatchObject({ signedIn: false, userId: null });
    const state = app.sandbox!.ctx.state;
    expect(state.rewards.has(rewardId)).toBe(false);
    expect([...state.refreshTokens.values()].filter((t) => !t.revoked)).toEqual([]);
    expect(state.channelBySlug('sandbox-streamer')).toBeDefined();
    expect(readFileSync(join(dir, SANDBOX_WORLD_FILE), 'utf8')).not.toContain('Hydrate');
  });

  it('stays reset and signed out after the next restart', async () => {
    const { app } = await restart();
    await expect.poll(async () => (await call(app, 'app:snapshot')).account.signingIn, POLL).toBe(false);
    expect((await call(app, 'app:snapshot')).account.signedIn).toBe(false);
    expect(app.sandbox!.ctx.state.rewards.has(rewardId)).toBe(false);
  });
});

describe('"Reset the sandbox" on Kick', () => {
  it('is refused, and touches neither the sign-in nor any file', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'greenroom-kick-no-reset-'));
    const kick = await startSandbox();
    const settings = openSettings(dir, { randomBytes });
    const config = resolveConfig({
      env: {
        GREENROOM_KICK_API_URL: kick.urls.api,
        GREENROOM_KICK_AUTH_URL: kick.urls.auth,
        GREENROOM_KICK_SOCKET_URL: kick.urls.socket,
        GREENROOM_KICK_WEB_URL: kick.urls.web,
        GREENROOM_CLIENT_ID: kick.ctx.app.clientId,
        GREENROOM_CLIENT_SECRET: kick.ctx.app.clientSecret,
      },
      settings: settings.values(),
      storedClientSecret: null,
      dataDir: dir,
    });
    const app = await createApp(config, {
      clock: systemClock,
      openExternal: () => Promise.resolve(),
      secretStore: new MemorySecretStore(),
      webhooks: () => createFakeWebhookPort(dir),
      log: () => undefined,
      dataDir: dir,
      settings,
    });
    try {
      expect(app.config.mode).toBe('kick');
      const result = await app.router.invoke('sandbox:reset', []);
      expect(result).toMatchObject({ ok: false, error: { code: 'NotConfigured' } });
      expect(existsSync(join(dir, SANDBOX_WORLD_FILE))).toBe(false);
    } finally {
      await app.stop();
      await kick.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
