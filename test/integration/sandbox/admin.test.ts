/**
 * The sandbox admin API over real HTTP: description, apps (developer dashboard), clock, scenarios and
 * jobs, kick.com-side channel actions, inspection views, deliveries, and 400/404 answers to bad input.
 *
 * This file: “who may call the admin API”; “description and apps”; “clock and deliveries”.
 */
import { describe, expect, it } from 'vitest';
import { call, callAdmin, startSandbox } from '../../helpers/sandbox';
import { startReceiver } from './webhook-receiver';
import { admin, fx, keys, rawAdmin, subscribeApp, useSetup } from './admin-fixtures';

useSetup();

describe('who may call the admin API', () => {
  const triggerChat = '/trigger/chat.message.sent';

  it('answers 401 without its token, or with a wrong one, and does nothing', async () => {
    const host = new URL(fx.sandbox.urls.admin).host;
    const nowBefore = fx.sandbox.ctx.clock.now();
    for (const authorization of [undefined, 'Bearer wrong', `Basic ${fx.sandbox.describe().adminToken}`, 'Bearer ']) {
      const headers: Record<string, string> = { host, ...(authorization ? { authorization } : {}) };
      const chat = await rawAdmin('POST', triggerChat, headers, { overrides: { content: 'injected' } });
      expect(chat.status, String(authorization)).toBe(401);
      expect(chat.headers['www-authenticate']).toMatch(/^Bearer /);
      expect(chat.json.error).toMatch(/needs its token/);
      const clock = await rawAdmin('POST', '/clock/advance', headers, { seconds: 86_400 });
      expect(clock.status).toBe(401);
      const described = await rawAdmin('GET', '/', headers);
      expect(described.status).toBe(401);
      expect(JSON.stringify(described.json)).not.toContain(fx.sandbox.describe().adminToken);
    }
    expect(fx.emitted).toEqual([]);
    expect(fx.sandbox.ctx.clock.now() - nowBefore).toBeLessThan(60_000);
    const ok = await rawAdmin('POST', triggerChat, {
      host,
      authorization: `Bearer ${fx.sandbox.describe().adminToken}`,
    });
    expect(ok.status).toBe(200);
    expect(fx.emitted.map((e) => e.type)).toEqual(['chat.message.sent']);
  });

  it('answers 403 to a foreign Origin or Host even with the token, and takes its own origin', async () => {
    const { host, port } = new URL(fx.sandbox.urls.admin);
    const authorization = `Bearer ${fx.sandbox.describe().adminToken}`;
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
    expect(fx.emitted).toEqual([]);
    for (const own of [`http://${host}`, `http://localhost:${port}`]) {
      const res = await rawAdmin('GET', '/clock', { host, authorization, origin: own });
      expect(res.status, own).toBe(200);
    }
    expect((await rawAdmin('GET', '/clock', { host: `localhost:${port}`, authorization })).status).toBe(200);
  });

  it('prints its token in the description, a fresh one on every start', async () => {
    const token = fx.sandbox.describe().adminToken;
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
    expect(res.json).toMatchObject(fx.sandbox.describe());
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
    const tokenRes = await call(fx.sandbox.urls.auth, 'POST', '/oauth/token', {
      rawBody: form.toString(),
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(tokenRes.status, tokenRes.text).toBe(200);
    expect(tokenRes.json.access_token).toEqual(expect.any(String));
    const list = await admin('GET', '/apps');
    expect((list.json.apps as { client_id: string }[]).map((a) => a.client_id)).toEqual([
      fx.sandbox.ctx.app.clientId,
      res.json.client_id,
    ]);
  });

  it('edits an app as the developer dashboard would', async () => {
    const id = fx.sandbox.ctx.app.clientId;
    const res = await admin('PATCH', `/apps/${id}`, {
      webhook_url: 'http://127.0.0.1:5000/hook',
      redirect_uris: ['http://127.0.0.1:5000/cb'],
    });
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({
      webhook_url: 'http://127.0.0.1:5000/hook',
      redirect_uris: ['http://127.0.0.1:5000/cb'],
    });
    expect(fx.sandbox.ctx.app.redirectUris).toEqual(['http://127.0.0.1:5000/cb']);
    expect((await admin('PATCH', `/apps/${id}`, { webhooks_enabled: false })).json.webhooks_enabled).toBe(false);
    expect(fx.sandbox.ctx.app.webhooksEnabled).toBe(false);
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
