/**
 * The sandbox admin API over real HTTP: description, apps (developer dashboard), clock, scenarios and
 * jobs, kick.com-side channel actions, inspection views, deliveries, and 400/404 answers to bad input.
 */
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { type IncomingHttpHeaders, request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadOrCreateSigningKeys } from '../../../sandbox/index';
import { createSigningKeys, type Sandbox } from '../../../sandbox/index';
import type { SandboxEvent } from '../../../sandbox/state';
import type { ChatMessageSentPayload, LivestreamStatusUpdatedPayload } from '../../../shared/kick/events';
import type { KickRedemptionGroup } from '../../../shared/kick/resources';
import { FIRST_VIEWER_USER_ID, STREAMER_USER_ID } from '../../../sandbox/world';
import { call, callAdmin, mintAppToken, mintUserToken, startSandbox } from '../../helpers/sandbox';
import { startReceiver } from './webhook-receiver';

const keys = createSigningKeys();

/** A chat message as `GET /channels/:id/chat` shows it. */
interface AdminMessage {
  message_id: string;
  content: string;
  deleted: boolean;
}
const CHANNEL = `/channels/${STREAMER_USER_ID}`;

let sandbox: Sandbox;
let emitted: SandboxEvent[];

beforeEach(async () => {
  sandbox = await startSandbox({ keys, delivery: { tickMs: 0 } });
  emitted = [];
  sandbox.ctx.state.onEvent((event) => emitted.push(event));
});

afterEach(async () => {
  await sandbox.close();
});

function admin(
  method: string,
  path: string,
  body?: unknown,
  query?: [string, string | number][],
): ReturnType<typeof call> {
  return callAdmin(sandbox, method, path, { body, query });
}

async function subscribeApp(event: string, url: string): Promise<void> {
  sandbox.ctx.app.webhookUrl = url;
  const res = await call(sandbox.urls.api, 'POST', '/public/v1/events/subscriptions', {
    token: mintAppToken(sandbox),
    body: { events: [{ name: event, version: 1 }], method: 'webhook', broadcaster_user_id: STREAMER_USER_ID },
  });
  expect(res.status, res.text).toBe(200);
}

/** A request with exactly these headers (undici would fill in Host itself). */
function rawAdmin(
  method: string,
  path: string,
  headers: Record<string, string>,
  body?: unknown,
): Promise<{ status: number; headers: IncomingHttpHeaders; json: any }> {
  const url = new URL(sandbox.urls.admin);
  const payload = body === undefined ? undefined : JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        host: url.hostname,
        port: url.port,
        path,
        method,
        headers: { ...(payload ? { 'content-type': 'application/json' } : {}), ...headers },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          resolve({ status: res.statusCode ?? 0, headers: res.headers, json: text ? JSON.parse(text) : undefined });
        });
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}

describe('who may call the admin API', () => {
  const triggerChat = '/trigger/chat.message.sent';

  it('answers 401 without its token, or with a wrong one, and does nothing', async () => {
    const host = new URL(sandbox.urls.admin).host;
    const nowBefore = sandbox.ctx.clock.now();
    for (const authorization of [undefined, 'Bearer wrong', `Basic ${sandbox.describe().adminToken}`, 'Bearer ']) {
      const headers: Record<string, string> = { host, ...(authorization ? { authorization } : {}) };
      const chat = await rawAdmin('POST', triggerChat, headers, { overrides: { content: 'injected' } });
      expect(chat.status, String(authorization)).toBe(401);
      expect(chat.headers['www-authenticate']).toMatch(/^Bearer /);
      expect(chat.json.error).toMatch(/needs its token/);
      const clock = await rawAdmin('POST', '/clock/advance', headers, { seconds: 86_400 });
      expect(clock.status).toBe(401);
      const described = await rawAdmin('GET', '/', headers);
      expect(described.status).toBe(401);
      expect(JSON.stringify(described.json)).not.toContain(sandbox.describe().adminToken);
    }
    expect(emitted).toEqual([]);
    expect(sandbox.ctx.clock.now() - nowBefore).toBeLessThan(60_000);
    const ok = await rawAdmin('POST', triggerChat, { host, authorization: `Bearer ${sandbox.describe().adminToken}` });
    expect(ok.status).toBe(200);
    expect(emitted.map((e) => e.type)).toEqual(['chat.message.sent']);
  });

  it('answers 403 to a foreign Origin or Host even with the token, and takes its own origin', async () => {
    const { host, port } = new URL(sandbox.urls.admin);
    const authorization = `Bearer ${sandbox.describe().adminToken}`;
    for (const origin of ['https://evil.example', 'null', `http://127.0.0.1:${Number(port) + 1}`, `https://${host}`]) {
      const res = await rawAdmin('POST', triggerChat, { host, authorization, origin });
      expect(res.status, origin).toBe(403);
      expect(res.json.error).toMatch(/cross-origin/);
    }
    for (const foreign of ['attacker.example', `attacker.example:${port}`, `127.0.0.2:${port}`, '127.0.0.1:1']) {
      const res = await rawAdmin('POST', triggerChat, { host: foreign, authorization });
      expect(res.status, foreign).toBe(403);
      expect(res.json.error).toMatch(/unexpected Host/);
    }
    expect(emitted).toEqual([]);
    for (const own of [`http://${host}`, `http://localhost:${port}`]) {
      const res = await rawAdmin('GET', '/clock', { host, authorization, origin: own });
      expect(res.status, own).toBe(200);
    }
    expect((await rawAdmin('GET', '/clock', { host: `localhost:${port}`, authorization })).status).toBe(200);
  });

  it('prints its token in the description, a fresh one on every start', async () => {
    const token = sandbox.describe().adminToken;
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const other = await startSandbox({ keys });
    try {
      expect(other.describe().adminToken).not.toBe(token);
      expect((await callAdmin(other, 'GET', '/clock')).status).toBe(200);
      expect((await call(other.urls.admin, 'GET', '/clock', { token })).status).toBe(401);
    } finally {
      await other.close();
    }
  });
});

describe('description and apps', () => {
  it('GET / answers the CLI description plus state counts', async () => {
    const res = await admin('GET', '/');
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject(sandbox.describe());
    expect(res.json.counts).toMatchObject({ apps: 1, chatMessages: 0, liveChannels: 12, runningJobs: 0 });
    expect(res.json.eventTypes).toHaveLength(10);
    expect(Object.keys(res.json.scenarios as Record<string, string>)).toContain('simulated-activity');
  });

  it('registers an app that can then get tokens, and lists it', async () => {
    const res = await admin('POST', '/apps', {
      name: 'Other bot',
      redirect_uris: ['http://127.0.0.1:4000/cb'],
      webhook_url: 'http://127.0.0.1:4001/hook',
    });
    expect(res.status).toBe(201);
    expect(res.json).toMatchObject({
      name: 'Other bot',
      client_id: expect.stringMatching(/^[0-9A-Z]{26}$/),
      client_secret: expect.stringMatching(/^[0-9a-f]{64}$/),
      webhooks_enabled: true,
    });
    const form = new URLSearchParams({
      grant_type: 'client_credentials',
      client_id: res.json.client_id,
      client_secret: res.json.client_secret,
    });
    const tokenRes = await call(sandbox.urls.auth, 'POST', '/oauth/token', {
      rawBody: form.toString(),
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(tokenRes.status, tokenRes.text).toBe(200);
    expect(tokenRes.json.access_token).toEqual(expect.any(String));
    const list = await admin('GET', '/apps');
    expect((list.json.apps as { client_id: string }[]).map((a) => a.client_id)).toEqual([
      sandbox.ctx.app.clientId,
      res.json.client_id,
    ]);
  });

  it('edits an app as the developer dashboard would', async () => {
    const id = sandbox.ctx.app.clientId;
    const res = await admin('PATCH', `/apps/${id}`, {
      webhook_url: 'http://127.0.0.1:5000/hook',
      redirect_uris: ['http://127.0.0.1:5000/cb'],
    });
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({
      webhook_url: 'http://127.0.0.1:5000/hook',
      redirect_uris: ['http://127.0.0.1:5000/cb'],
    });
    expect(sandbox.ctx.app.redirectUris).toEqual(['http://127.0.0.1:5000/cb']);
    expect((await admin('PATCH', `/apps/${id}`, { webhooks_enabled: false })).json.webhooks_enabled).toBe(false);
    expect(sandbox.ctx.app.webhooksEnabled).toBe(false);
  });

  it.each([
    ['POST', '/apps', {}, 400, 'name: is required'],
    ['POST', '/apps', { name: 'x' }, 400, 'redirect_uris: is required'],
    ['POST', '/apps', { name: 'x', redirect_uris: ['nope'] }, 400, 'redirect_uris[0]: must be an absolute URL'],
    [
      'POST',
      '/apps',
      { name: 'x', redirect_uris: ['http://a/cb'], webhook_url: 'ftp://a' },
      400,
      'webhook_url: must use http: or https:',
    ],
    ['PATCH', '/apps/NOPE', { name: 'y' }, 404, 'client_id: no app NOPE'],
    [
      'PATCH',
      '/apps/01JSANDB0XGREENR00MC11ENT0',
      {},
      400,
      'request body: send at least one of name, redirect_uris, webhook_url, webhooks_enabled',
    ],
    [
      'PATCH',
      '/apps/01JSANDB0XGREENR00MC11ENT0',
      { webhooks_enabled: true },
      400,
      'webhook_url: required to enable webhooks',
    ],
    [
      'PATCH',
      '/apps/01JSANDB0XGREENR00MC11ENT0',
      { webhooks_enabled: 'yes' },
      400,
      'webhooks_enabled: must be a boolean',
    ],
  ])('%s %s %j → %i', async (method, path, body, status, error) => {
    const res = await admin(method, path, body);
    expect(res.status).toBe(status);
    expect(res.json).toEqual({ error });
  });
});

describe('clock and deliveries', () => {
  it('advances the clock and delivers what became due', async () => {
    const receiver = await startReceiver();
    try {
      await subscribeApp('channel.followed', receiver.url);
      const before = (await admin('GET', '/clock')).json.now_ms;
      await admin('POST', '/trigger/channel.followed', { delay_seconds: 60 });
      expect((await admin('POST', '/deliveries/flush')).json.pending).toBe(1);
      expect(receiver.requests).toHaveLength(0);
      const advanced = await admin('POST', '/clock/advance', { seconds: 60 });
      expect(advanced.status).toBe(200);
      expect(advanced.json).toMatchObject({ advanced_seconds: 60, pending_deliveries: 0 });
      expect(advanced.json.now_ms - before).toBeGreaterThanOrEqual(60_000);
      expect(receiver.requests).toHaveLength(1);
      const deliveries = await admin('GET', '/deliveries', undefined, [['limit', 1]]);
      expect(deliveries.json.attempts).toEqual([
        expect.objectContaining({
          event_type: 'channel.followed',
          status: 200,
          url: receiver.url,
          message_id: expect.any(String),
          attempted_at: expect.any(String),
        }),
      ]);
    } finally {
      await receiver.close();
    }
  });

  it.each([
    [{}, 'seconds: is required'],
    [{ seconds: -5 }, 'seconds: must be at least 0'],
    [{ seconds: '10' }, 'seconds: must be a number'],
  ])('clock advance %j → 400', async (body, error) => {
    const res = await admin('POST', '/clock/advance', body);
    expect(res.status).toBe(400);
    expect(res.json).toEqual({ error });
  });

  it('rejects a bad deliveries limit', async () => {
    expect((await admin('GET', '/deliveries', undefined, [['limit', 0]])).json).toEqual({
      error: 'limit: must be from 1 to 10000',
    });
  });
});

describe('scenarios and jobs', () => {
  it('chat-storm fills chat fast, with emotes and replies', async () => {
    const res = await admin('POST', '/scenarios/chat-storm', { immediate: true });
    expect(res.json).toEqual({ scenario: 'chat-storm', fired: 80 });
    const messages = (await admin('GET', `${CHANNEL}/chat`, undefined, [['limit', 1000]])).json
      .messages as AdminMessage[];
    expect(messages).toHaveLength(80);
    expect(messages.some((m) => /\[emote:\d+:\w+\]/.test(m.content))).toBe(true);
  });

  it('sub-train mixes new subs, renewals and gifts', async () => {
    await admin('POST', '/scenarios/sub-train', { immediate: true });
    const types = new Set(emitted.map((e) => e.type));
    expect(emitted.filter((e) => e.type.startsWith('channel.subscription.'))).toHaveLength(12);
    expect([...types].every((t) => t.startsWith('channel.subscription.') || t === 'chat.message.sent')).toBe(true);
  });

  it('redemption-wave leaves many pending redemptions across rewards', async () => {
    await admin('POST', '/scenarios/redemption-wave', { immediate: true });
    const token = mintUserToken(sandbox);
    const groups = (await call(sandbox.urls.api, 'GET', '/public/v1/channels/rewards/redemptions', { token })).json
      .data as KickRedemptionGroup[];
    const total = groups.reduce((n, g) => n + g.redemptions.length, 0);
    expect(total).toBe(18);
    expect(groups.length).toBeGreaterThanOrEqual(2);
    expect(
      (await admin('GET', `${CHANNEL}/redemptions`, undefined, [['status', 'pending']])).json.redemptions,
    ).toHaveLength(18);
  });

  it('ban-wave bans and times out the spammers', async () => {
    await admin('POST', '/scenarios/ban-wave', { immediate: true });
    const bans = (await admin('GET', `${CHANNEL}/bans`)).json.bans as { expires_at: string | null }[];
    expect(bans).toHaveLength(6);
    expect(bans.filter((b) => b.expires_at === null)).toHaveLength(3);
    expect(emitted.filter((e) => e.type === 'chat.message.sent')).toHaveLength(6);
  });

  it('raid brings follows and a chat burst', async () => {
    await admin('POST', '/scenarios/raid', { immediate: true });
    expect(emitted.filter((e) => e.type === 'channel.followed')).toHaveLength(12);
    expect(emitted.filter((e) => e.type === 'chat.message.sent')).toHaveLength(24);
  });

  it('runs simulated activity as a job until it is stopped', async () => {
    const started = await admin('POST', '/scenarios/simulated-activity');
    expect(started.status).toBe(202);
    expect(started.json).toMatchObject({
      scenario: 'simulated-activity',
      job_id: expect.any(String),
      job: { state: 'running', steps_total: null },
    });
    expect(emitted.length).toBeGreaterThanOrEqual(1);
    expect((await admin('GET', '/jobs')).json.jobs).toEqual([
      expect.objectContaining({ job_id: started.json.job_id, state: 'running', kind: 'scenario' }),
    ]);
    expect((await admin('GET', '/')).json.counts.runningJobs).toBe(1);
    const stopped = await admin('DELETE', `/scenarios/${started.json.job_id}`);
    expect(stopped.json).toMatchObject({ state: 'stopped', ended_at: expect.any(String) });
    expect((await admin('DELETE', '/scenarios/job_999')).status).toBe(404);
  });

  it('refuses unknown scenarios and an immediate endless one', async () => {
    const unknown = await admin('POST', '/scenarios/party');
    expect(unknown.status).toBe(400);
    expect(unknown.json.error).toBe(
      'scenario: must be one of chat-storm, sub-train, redemption-wave, ban-wave, raid, simulated-activity',
    );
    const endless = await admin('POST', '/scenarios/simulated-activity', { immediate: true });
    expect(endless.json).toEqual({ error: 'immediate: simulated-activity never ends; start it without immediate' });
  });
});

describe('channel actions and views', () => {
  it('goes live and offline, emitting only on a change', async () => {
    const live = await admin('POST', `${CHANNEL}/live`, { is_live: true, title: 'Live from the admin API' });
    expect(live.json).toMatchObject({
      changed: true,
      is_live: true,
      title: 'Live from the admin API',
      ended_at: null,
      livestream_id: expect.any(String),
    });
    expect((await admin('POST', `${CHANNEL}/live`, { is_live: true })).json.changed).toBe(false);
    const offline = await admin('POST', `${CHANNEL}/live`, { is_live: false });
    expect(offline.json).toMatchObject({ changed: true, is_live: false, ended_at: expect.any(String) });
    expect(emitted.map((e) => [e.type, (e.payload as LivestreamStatusUpdatedPayload).is_live])).toEqual([
      ['livestream.status.updated', true],
      ['livestream.status.updated', false],
    ]);
  });

  it('lets a viewer redeem, on a default or a named reward', async () => {
    const res = await admin('POST', `${CHANNEL}/redemptions`, { user_id: FIRST_VIEWER_USER_ID });
    expect(res.status).toBe(201);
    expect(res.json).toMatchObject({
      status: 'pending',
      redeemer_user_id: FIRST_VIEWER_USER_ID,
      reward_id: expect.any(String),
    });
    expect(emitted.map((e) => e.type)).toEqual(['channel.reward.redemption.updated']);
    const listed = (await admin('GET', `${CHANNEL}/redemptions`)).json.redemptions;
    expect(listed).toEqual([expect.objectContaining({ id: res.json.id })]);
    const reward = sandbox.ctx.state.rewards.get(res.json.reward_id as string)!;
    reward.isPaused = true;
    const paused = await admin('POST', `${CHANNEL}/redemptions`, { reward_id: reward.id });
    expect(paused.status).toBe(409);
    expect(paused.json).toEqual({ error: 'reward_id: the reward is paused' });
    expect((await admin('POST', `${CHANNEL}/redemptions`, { reward_id: '01JNOPE0000000000000000000' })).status).toBe(
      404,
    );
  });

  it('lets a viewer chat and shows deleted messages', async () => {
    const first = await admin('POST', `${CHANNEL}/chat`, {
      user_id: FIRST_VIEWER_USER_ID,
      content: 'hello [emote:37226:KEKW]',
    });
    expect(first.status).toBe(201);
    const reply = await admin('POST', `${CHANNEL}/chat`, { content: 'welcome', reply_to: first.json.message_id });
    expect(reply.status).toBe(201);
    expect((emitted[1]!.payload as ChatMessageSentPayload).replies_to?.message_id).toBe(first.json.message_id);
    const token = mintUserToken(sandbox);
    expect((await call(sandbox.urls.api, 'DELETE', `/public/v1/chat/${first.json.message_id}`, { token })).status).toBe(
      204,
    );
    const chat = (await admin('GET', `${CHANNEL}/chat`)).json.messages as AdminMessage[];
    expect(chat.map((m) => [m.content, m.deleted])).toEqual([
      ['hello [emote:37226:KEKW]', true],
      ['welcome', false],
    ]);
    expect((await admin('GET', `${CHANNEL}/chat`, undefined, [['limit', 1]])).json.messages).toHaveLength(1);
  });

  it.each([
    [`${CHANNEL}/chat`, {}, 400, 'content: is required'],
    [`${CHANNEL}/chat`, { content: 'x'.repeat(501) }, 400, 'content: must be at most 500 characters'],
    [`${CHANNEL}/chat`, { content: 'hi', user_id: 999 }, 400, 'user_id: no user 999'],
    [`${CHANNEL}/chat`, { content: 'hi', reply_to: 'nope' }, 400, 'reply_to: no message nope in this channel'],
    [`${CHANNEL}/live`, {}, 400, 'is_live: is required'],
    [`${CHANNEL}/live`, { is_live: 'yes' }, 400, 'is_live: must be a boolean'],
    ['/channels/424242/live', { is_live: true }, 404, 'broadcaster_user_id: no channel for broadcaster 424242'],
    ['/channels/abc/chat', { content: 'hi' }, 400, 'broadcaster_user_id: must be an integer'],
  ])('POST %s %j → %i', async (path, body, status, error) => {
    const res = await admin('POST', path, body);
    expect(res.status).toBe(status);
    expect(res.json).toEqual({ error });
    expect(emitted).toHaveLength(0);
  });

  it('shows rewards, ads and bans, and validates filters', async () => {
    await admin('POST', '/trigger/moderation.banned', {
      overrides: { 'banned_user.user_id': FIRST_VIEWER_USER_ID + 3 },
    });
    expect((await admin('GET', `${CHANNEL}/bans`)).json.bans).toEqual([
      expect.objectContaining({ user_id: FIRST_VIEWER_USER_ID + 3, username: 'lunarfox' }),
    ]);
    expect((await admin('GET', `${CHANNEL}/rewards`)).json).toEqual({ rewards: [] });
    expect((await admin('GET', `${CHANNEL}/ads`)).json).toEqual({
      opted_in: false,
      ads_blocked: false,
      limits: { max: 3, period_seconds: 3600 },
      breaks: [],
    });
    expect((await admin('GET', `${CHANNEL}/redemptions`, undefined, [['status', 'done']])).json).toEqual({
      error: 'status: must be one of pending, accepted, rejected',
    });
  });

  it('answers unknown routes and methods in its own error shape', async () => {
    expect(await admin('GET', '/nowhere')).toMatchObject({ status: 404, json: { error: 'unknown admin route' } });
    expect((await admin('PUT', '/clock')).status).toBe(405);
    const bad = await callAdmin(sandbox, 'POST', '/apps', {
      rawBody: '[1]',
      headers: { 'content-type': 'application/json' },
    });
    expect(bad).toMatchObject({ status: 400, json: { error: 'request body: expected a JSON object' } });
  });
});

describe('the embedded sandbox keeps its signing key', () => {
  it('makes the key once (0600) and reads the same key back on the next start', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'greenroom-sandbox-key-'));
    try {
      const file = join(dir, 'sandbox-signing-key.pem');
      const first = await loadOrCreateSigningKeys(file);
      expect(statSync(file).mode & 0o777).toBe(0o600);
      const second = await loadOrCreateSigningKeys(file);
      expect(second.publicKeyPem).toBe(first.publicKeyPem);
      expect(first.publicKeyPem).toContain('BEGIN PUBLIC KEY');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
