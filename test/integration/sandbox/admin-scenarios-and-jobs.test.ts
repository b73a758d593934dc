/**
 * The sandbox admin API over real HTTP: description, apps (developer dashboard), clock, scenarios and
 * jobs, kick.com-side channel actions, inspection views, deliveries, and 400/404 answers to bad input.
 *
 * This file: “scenarios and jobs”; “channel actions and views”; “the embedded sandbox keeps its signing key”.
 */
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadOrCreateSigningKeys } from '../../../sandbox/index';
import type { ChatMessageSentPayload, LivestreamStatusUpdatedPayload } from '../../../shared/kick/events';
import type { KickRedemptionGroup } from '../../../shared/kick/resources';
import { FIRST_VIEWER_USER_ID } from '../../../sandbox/world';
import { call, callAdmin, mintUserToken } from '../../helpers/sandbox';
import { type AdminMessage, CHANNEL, admin, fx, useSetup } from './admin-fixtures';

useSetup();

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
    const types = new Set(fx.emitted.map((e) => e.type));
    expect(fx.emitted.filter((e) => e.type.startsWith('channel.subscription.'))).toHaveLength(12);
    expect([...types].every((t) => t.startsWith('channel.subscription.') || t === 'chat.message.sent')).toBe(true);
  });

  it('redemption-wave leaves many pending redemptions across rewards', async () => {
    await admin('POST', '/scenarios/redemption-wave', { immediate: true });
    const token = mintUserToken(fx.sandbox);
    const groups = (await call(fx.sandbox.urls.api, 'GET', '/public/v1/channels/rewards/redemptions', { token })).json
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
    expect(fx.emitted.filter((e) => e.type === 'chat.message.sent')).toHaveLength(6);
  });

  it('raid brings follows and a chat burst', async () => {
    await admin('POST', '/scenarios/raid', { immediate: true });
    expect(fx.emitted.filter((e) => e.type === 'channel.followed')).toHaveLength(12);
    expect(fx.emitted.filter((e) => e.type === 'chat.message.sent')).toHaveLength(24);
  });

  it('runs simulated activity as a job until it is stopped', async () => {
    const started = await admin('POST', '/scenarios/simulated-activity');
    expect(started.status).toBe(202);
    expect(started.json).toMatchObject({
      scenario: 'simulated-activity',
      job_id: expect.any(String),
      job: { state: 'running', steps_total: null },
    });
    expect(fx.emitted.length).toBeGreaterThanOrEqual(1);
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
      'scenario: must be one of chat-storm, sub-train, redemption-wave, ban-wave, raid, foreign-channel, simulated-activity',
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
    expect(fx.emitted.map((e) => [e.type, (e.payload as LivestreamStatusUpdatedPayload).is_live])).toEqual([
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
    expect(fx.emitted.map((e) => e.type)).toEqual(['channel.reward.redemption.updated']);
    const listed = (await admin('GET', `${CHANNEL}/redemptions`)).json.redemptions;
    expect(listed).toEqual([expect.objectContaining({ id: res.json.id })]);
    const reward = fx.sandbox.ctx.state.rewards.get(res.json.reward_id as string)!;
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
    expect((fx.emitted[1]!.payload as ChatMessageSentPayload).replies_to?.message_id).toBe(first.json.message_id);
    const token = mintUserToken(fx.sandbox);
    expect(
      (await call(fx.sandbox.urls.api, 'DELETE', `/public/v1/chat/${first.json.message_id}`, { token })).status,
    ).toBe(204);
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
    expect(fx.emitted).toHaveLength(0);
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
    const bad = await callAdmin(fx.sandbox, 'POST', '/apps', {
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
