/**
 * A crash right after a sign-in or a subscription must not lose them
 * ([sandbox notes](../../../docs/sandbox.md#what-the-saved-world-keeps)). The crash is what is on disk the
 * moment the answer arrives: the world file is copied into a second data dir then (the coalesced save's
 * timer never fires), and a sandbox started there must know the tokens and the subscriptions.
 *
 * A storm of chat lines, on the other hand, must not write the file at all.
 */
import { randomBytes } from 'node:crypto';
import { copyFileSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { resolveConfig } from '../../../electron/app/config';
import { type EmbeddedSandbox, startEmbeddedSandbox } from '../../../electron/app/embedded-sandbox';
import { openSettings } from '../../../electron/app/settings';
import { systemClock } from '../../../electron/core/clock';
import { type SaveTimers, SANDBOX_WORLD_FILE } from '../../../sandbox/persist-file';
import { STREAMER_USER_ID } from '../../../sandbox/world';
import { call, callAdmin } from '../../helpers/sandbox';
import { introspect, postForm, signIn } from './oauth-flow';

const SUBSCRIPTIONS = '/public/v1/events/subscriptions';

/** Save timers that never fire: only a save made at once reaches the disk. */
function frozenTimers(): SaveTimers & { asked: number } {
  return {
    asked: 0,
    set() {
      this.asked++;
      return null;
    },
    clear: () => undefined,
  };
}

const dirs: string[] = [];
const running: EmbeddedSandbox[] = [];

async function start(dataDir: string, timers: SaveTimers = frozenTimers()): Promise<EmbeddedSandbox> {
  const settings = openSettings(dataDir, { randomBytes });
  const config = resolveConfig({
    env: { GREENROOM_SANDBOX_ACTIVITY: 'off', GREENROOM_SANDBOX_AUTO_APPROVE: String(STREAMER_USER_ID) },
    settings: settings.values(),
    storedClientSecret: null,
    dataDir,
  });
  const embedded = await startEmbeddedSandbox(config, { clock: systemClock, log: () => undefined, saveTimers: timers });
  embedded.sandbox.ctx.app.redirectUris.push('http://localhost:3000/callback');
  running.push(embedded);
  return embedded;
}

function freshDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'greenroom-world-crash-'));
  dirs.push(dir);
  return dir;
}

/** What a kill -9 now leaves: the world file as it is on disk, in a new data dir. */
async function afterCrash(dataDir: string): Promise<EmbeddedSandbox> {
  const other = freshDir();
  const file = join(dataDir, SANDBOX_WORLD_FILE);
  if (existsSync(file)) {
    copyFileSync(file, join(other, SANDBOX_WORLD_FILE));
  }
  return start(other);
}

const active = async (embedded: EmbeddedSandbox, token: string): Promise<unknown> =>
  ((await introspect(embedded.sandbox, token)).json as { data?: { active?: boolean } }).data?.active;

async function subscribe(embedded: EmbeddedSandbox, token: string): Promise<string[]> {
  const res = await call(embedded.sandbox.urls.api, 'POST', SUBSCRIPTIONS, {
    token,
    body: {
      events: [
        { name: 'chat.message.sent', version: 1 },
        { name: 'channel.followed', version: 1 },
      ],
      method: 'webhook',
      broadcaster_user_id: STREAMER_USER_ID,
    },
  });
  expect(res.status, res.text).toBe(200);
  return (res.json.data as { subscription_id: string }[]).map((s) => s.subscription_id);
}

async function listed(embedded: EmbeddedSandbox, token: string): Promise<string[]> {
  const res = await call(embedded.sandbox.urls.api, 'GET', SUBSCRIPTIONS, { token });
  expect(res.status, res.text).toBe(200);
  return (res.json.data as { id: string }[]).map((s) => s.id).sort();
}

beforeEach(() => {
  dirs.length = 0;
  running.length = 0;
});

afterEach(async () => {
  await Promise.all(running.map((embedded) => embedded.close()));
  dirs.forEach((dir) => rmSync(dir, { recursive: true, force: true }));
});

describe('a crash right after the answer', () => {
  it('keeps the sign-in and the subscriptions: the tokens work and refresh, the subscriptions are listed', async () => {
    const home = freshDir();
    const first = await start(home);
    const tokens = await signIn(first.sandbox, 'user:read events:subscribe');
    const ids = await subscribe(first, tokens.access_token);

    const second = await afterCrash(home);
    expect(await active(second, tokens.access_token)).toBe(true);
    expect(await listed(second, tokens.access_token)).toEqual([...ids].sort());
    const app = second.sandbox.ctx.app;
    const refreshed = await postForm(second.sandbox.urls.auth, '/oauth/token', {
      grant_type: 'refresh_token',
      refresh_token: tokens.refresh_token,
      client_id: app.clientId,
      client_secret: app.clientSecret,
    });
    expect(refreshed.status, refreshed.text).toBe(200);

    // The refreshed tokens are kept at once too: a second crash still knows them.
    const minted = (refreshed.json as { access_token: string }).access_token;
    const third = await afterCrash(dirs[1]!);
    expect(await active(third, minted)).toBe(true);
  });

  it('keeps a deleted subscription deleted and a revoked token revoked', async () => {
    const home = freshDir();
    const first = await start(home);
    const tokens = await signIn(first.sandbox, 'user:read events:subscribe');
    const [gone, kept] = await subscribe(first, tokens.access_token);
    const deleted = await call(first.sandbox.urls.api, 'DELETE', SUBSCRIPTIONS, {
      token: tokens.access_token,
      query: [['id', gone!]],
    });
    expect(deleted.status, deleted.text).toBe(204);
    expect(await listed(await afterCrash(home), tokens.access_token)).toEqual([kept]);

    const revoked = await postForm(first.sandbox.urls.auth, '/oauth/revoke', {
      token: tokens.refresh_token,
      token_hint_type: 'refresh_token',
    });
    expect(revoked.status).toBe(200);
    const after = await afterCrash(home);
    expect(await active(after, tokens.access_token)).toBe(false);
  });

  it('keeps an app registered through the admin API', async () => {
    const home = freshDir();
    const first = await start(home);
    const res = await callAdmin(first.sandbox, 'POST', '/apps', {
      body: { name: 'Overlay helper', redirect_uris: ['http://localhost:4000/callback'] },
    });
    expect(res.status, res.text).toBe(201);
    const after = await afterCrash(home);
    expect([...after.sandbox.ctx.state.apps.values()].map((app) => app.name)).toContain('Overlay helper');

    // A change to it too: its new webhook address is what a restarted sandbox delivers to.
    const clientId = (res.json as { client_id: string }).client_id;
    const webhook = 'http://127.0.0.1:4001/kick/webhook';
    const patched = await callAdmin(first.sandbox, 'PATCH', `/apps/${clientId}`, { body: { webhook_url: webhook } });
    expect(patched.status, patched.text).toBe(200);
    expect((await afterCrash(home)).sandbox.ctx.state.apps.get(clientId)?.webhookUrl).toBe(webhook);
  });
});

describe('what is not saved at once', () => {
  it('a storm of chat lines and an ordinary change leave the file as the sign-in wrote it', async () => {
    const home = freshDir();
    const timers = frozenTimers();
    const embedded = await start(home, timers);
    const { access_token: token } = await signIn(embedded.sandbox, 'user:read chat:write channel:rewards:write');
    const written = readFileSync(join(home, SANDBOX_WORLD_FILE), 'utf8');
    for (let i = 0; i < 40; i++) {
      const res = await call(embedded.sandbox.urls.api, 'POST', '/public/v1/chat', {
        token,
        body: { type: 'user', content: `line ${i}`, broadcaster_user_id: STREAMER_USER_ID },
      });
      expect(res.status, res.text).toBe(200);
    }
    const reward = await call(embedded.sandbox.urls.api, 'POST', '/public/v1/channels/rewards', {
      token,
      body: { title: 'Hydrate', cost: 10 },
    });
    expect(reward.status, reward.text).toBe(200);
    expect(readFileSync(join(home, SANDBOX_WORLD_FILE), 'utf8')).toBe(written);
    // The reward waits for the coalesced save: one asked for since the sign-in's.
    expect(timers.asked).toBe(2);
  });
});
