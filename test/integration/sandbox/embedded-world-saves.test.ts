/**
 * The embedded sandbox's saved world, through its real doors: HTTP on the sandbox's ports and the
 * `sandbox-world.json` file between two starts on one data dir
 * ([sandbox notes](../../../docs/sandbox.md#what-the-saved-world-keeps)).
 *
 * - Revoking a refresh token after a restart still revokes the access tokens issued with it, as on Kick.
 * - Only an answered, successful write is a change: refused requests (401, 400) do not rewrite the file.
 */
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { resolveConfig } from '../../../electron/app/config';
import { type EmbeddedSandbox, startEmbeddedSandbox } from '../../../electron/app/embedded-sandbox';
import { openSettings } from '../../../electron/app/settings';
import { systemClock } from '../../../electron/core/clock';
import { type SaveTimers, SANDBOX_WORLD_FILE } from '../../../sandbox/persist-file';
import { STREAMER_USER_ID } from '../../../sandbox/world';
import { call } from '../../helpers/sandbox';
import { introspect, postForm, signIn } from './oauth-flow';

/** Save timers the test fires by hand, counting how many saves were asked for. */
function handTimers(): SaveTimers & { asked: number; fire(): void } {
  let pending: (() => void)[] = [];
  return {
    asked: 0,
    set(run) {
      this.asked++;
      pending.push(run);
      return run;
    },
    clear(handle) {
      pending = pending.filter((run) => run !== handle);
    },
    fire() {
      pending.splice(0).forEach((run) => run());
    },
  };
}

let dataDir: string;
let running: EmbeddedSandbox | null;

async function start(saveTimers: SaveTimers = handTimers()): Promise<EmbeddedSandbox> {
  const settings = openSettings(dataDir, { randomBytes });
  const config = resolveConfig({
    env: { GREENROOM_SANDBOX_ACTIVITY: 'off', GREENROOM_SANDBOX_AUTO_APPROVE: String(STREAMER_USER_ID) },
    settings: settings.values(),
    storedClientSecret: null,
    dataDir,
  });
  running = await startEmbeddedSandbox(config, { clock: systemClock, log: () => undefined, saveTimers });
  // What the sign-in's opener does for the redirect the OAuth helpers use.
  running.sandbox.ctx.app.redirectUris.push('http://localhost:3000/callback');
  return running;
}

async function restart(): Promise<EmbeddedSandbox> {
  await running?.close();
  running = null;
  return start();
}

const active = async (embedded: EmbeddedSandbox, token: string): Promise<unknown> =>
  ((await introspect(embedded.sandbox, token)).json as { data?: { active?: boolean } }).data?.active;

beforeEach(() => {
  dataDir = mkdtempSync(join(tmpdir(), 'greenroom-world-saves-'));
  running = null;
});

afterEach(async () => {
  await running?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('the embedded sandbox, restarted on its saved world', () => {
  it('revoking a refresh token after a restart revokes the access tokens issued with it', async () => {
    const first = await start();
    const tokens = await signIn(first.sandbox);
    const app = first.sandbox.ctx.app;
    const refreshed = await postForm(first.sandbox.urls.auth, '/oauth/token', {
      grant_type: 'refresh_token',
      refresh_token: tokens.refresh_token,
      client_id: app.clientId,
      client_secret: app.clientSecret,
    });
    expect(refreshed.status, refreshed.text).toBe(200);
    const minted = (refreshed.json as { access_token: string }).access_token;

    const second = await restart();
    expect(await active(second, tokens.access_token)).toBe(true);
    expect(await active(second, minted)).toBe(true);
    const revoked = await postForm(second.sandbox.urls.auth, '/oauth/revoke', {
      token: tokens.refresh_token,
      token_hint_type: 'refresh_token',
    });
    expect(revoked.status).toBe(200);
    expect(await active(second, tokens.access_token)).toBe(false);
    expect(await active(second, minted)).toBe(false);
    const user = await call(second.sandbox.urls.api, 'GET', '/public/v1/users', { token: minted });
    expect(user.status).toBe(401);

    // And the revocation itself is kept: a third start still refuses them.
    const third = await restart();
    expect(await active(third, tokens.access_token)).toBe(false);
  });
});

describe('what counts as a change to the saved world', () => {
  it('refused writes (no token, a bad client, an unknown token to revoke) ask for no save', async () => {
    const timers = handTimers();
    const embedded = await start(timers);
    const { api, auth } = embedded.sandbox.urls;
    for (let i = 0; i < 5; i++) {
      const res = await call(api, 'POST', '/public/v1/channels/rewards', { body: { title: `r${i}`, cost: 10 } });
      expect(res.status).toBe(401);
    }
    const badClient = await postForm(auth, '/oauth/token', {
      grant_type: 'client_credentials',
      client_id: 'nobody',
      client_secret: 'wrong',
    });
    expect(badClient.status).toBeGreaterThanOrEqual(400);
    expect((await postForm(auth, '/oauth/revoke', { token: 'a-token-nobody-was-given' })).status).toBe(200);
    expect((await introspect(embedded.sandbox, 'a-token-nobody-was-given')).status).toBe(200);
    // The admin port without its token: refused before any route runs.
    expect((await call(embedded.sandbox.urls.admin, 'POST', '/reset', { body: {} })).status).toBe(401);
    expect(timers.asked).toBe(0);
    expect(existsSync(join(dataDir, SANDBOX_WORLD_FILE))).toBe(false);
  });

  it('a successful authenticated write asks for one save, written when the timer fires', async () => {
    const timers = handTimers();
    const embedded = await start(timers);
    const { access_token: token } = await signIn(embedded.sandbox, 'channel:rewards:write');
    expect(timers.asked).toBe(1); // the sign-in's tokens
    timers.fire();
    for (let i = 0; i < 3; i++) {
      const res = await call(embedded.sandbox.urls.api, 'POST', '/public/v1/channels/rewards', {
        token,
        body: { title: `Hydrate ${i}`, cost: 10 },
      });
      expect(res.status, res.text).toBe(200);
    }
    // Three changes in one burst: one save asked for, coalesced.
    expect(timers.asked).toBe(2);
    timers.fire();
    await embedded.close();
    running = null;
    const again = await start();
    expect([...again.sandbox.ctx.state.rewards.values()].map((r) => r.title)).toContain('Hydrate 2');
  });
});
