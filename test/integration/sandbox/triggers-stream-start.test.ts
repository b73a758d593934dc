/**
 * A `livestream.status.updated` trigger with a `started_at` override: the world keeps that one start, so
 * the public API answers the time the webhook said and a client asking after a restart finds the same
 * stream ([sandbox notes](../../../docs/sandbox.md#one-start-per-stream)). Through the
 * admin API over HTTP and the public API.
 */
import { describe, expect, it } from 'vitest';
import { STREAMER_USER_ID } from '../../../sandbox/world';
import { callAdmin } from '../../helpers/sandbox';
import { api, fire, fx, streamerChannel, useSetup } from './triggers-fixtures';

useSetup();

const STATUS = 'livestream.status.updated';

/** Every start the public API gives for the streamer's live stream, as instants. */
async function startsHeard(): Promise<number[]> {
  const channel = await streamerChannel();
  const mine = [['user_id', STREAMER_USER_ID]] as [string, number][];
  const v1 = await api<{ broadcaster_user_id: number; started_at: string }[]>('/public/v1/livestreams');
  const v2 = await api<{ broadcaster_user: { id: number }; started_at: string }[]>('/public/v2/livestreams');
  const own = await api<{ started_at: string }[]>('/public/v1/users/livestreams', mine);
  return [
    channel.stream.start_time,
    v1.find((s) => s.broadcaster_user_id === STREAMER_USER_ID)?.started_at,
    v2.find((s) => s.broadcaster_user.id === STREAMER_USER_ID)?.started_at,
    own[0]?.started_at,
  ].map((at) => Date.parse(String(at)));
}

async function refused(overrides: Record<string, unknown>): Promise<string> {
  const res = await callAdmin(fx.sandbox, 'POST', `/trigger/${STATUS}`, { body: { overrides } });
  expect(res.status, res.text).toBe(400);
  return res.text;
}

describe('a trigger that names the stream start', () => {
  it('going live: every endpoint answers the start the webhook said', async () => {
    const startedAt = new Date(fx.sandbox.ctx.state.now() - 42 * 60_000).toISOString();
    const payload = await fire(STATUS, { overrides: { is_live: true, started_at: startedAt } });
    expect(payload.started_at).toBe(startedAt);
    expect(await startsHeard()).toEqual(Array(4).fill(Date.parse(startedAt)));
  });

  it('an offset or whole-second form names the same instant everywhere', async () => {
    const at = fx.sandbox.ctx.state.now() - 3 * 3_600_000;
    const local = new Date(at + 2 * 3_600_000).toISOString().replace(/\.\d{3}Z$/, '+02:00');
    await fire(STATUS, { overrides: { is_live: true, started_at: local } });
    expect(await startsHeard()).toEqual(Array(4).fill(Math.floor(at / 1000) * 1000));
  });

  it('re-announcing a live stream with another start moves the one start the world has', async () => {
    await fire(STATUS, { overrides: { is_live: true } });
    const startedAt = new Date(fx.sandbox.ctx.state.now() - 90 * 60_000).toISOString();
    await fire(STATUS, { overrides: { is_live: true, started_at: startedAt } });
    expect(await startsHeard()).toEqual(Array(4).fill(Date.parse(startedAt)));
  });

  it('going offline keeps the start and the end the webhook said', async () => {
    const now = fx.sandbox.ctx.state.now();
    const startedAt = new Date(now - 60 * 60_000).toISOString();
    const endedAt = new Date(now - 5 * 60_000).toISOString();
    await fire(STATUS, { overrides: { is_live: true } });
    const offline = await fire(STATUS, { overrides: { is_live: false, started_at: startedAt, ended_at: endedAt } });
    expect([offline.started_at, offline.ended_at]).toEqual([startedAt, endedAt]);
    const channel = fx.sandbox.ctx.state.channels.get(STREAMER_USER_ID)!;
    expect([channel.startedAtMs, channel.endedAtMs]).toEqual([Date.parse(startedAt), Date.parse(endedAt)]);
    // Live again without a start: a fresh stream starting now, not the overridden one.
    await fire(STATUS, { overrides: { is_live: true } });
    expect((await startsHeard())[0]).toBeGreaterThanOrEqual(now);
  });
});

describe('a start the world cannot have is refused, the channel left as it was', () => {
  it.each([
    ['not a time', { started_at: 'yesterday' }, 'overrides.started_at: must be a time'],
    ['a number', { started_at: 1_700_000_000_000 }, 'overrides.started_at: must be a time'],
    ['a date without a time', { started_at: '2026-01-31' }, 'overrides.started_at: must be a time'],
    ['an impossible date', { started_at: '2026-02-31T25:00:00Z' }, 'overrides.started_at: must be a time'],
    ['null', { started_at: null }, 'overrides.started_at: must be a time'],
  ])('%s', async (_name, overrides, message) => {
    const before = { ...fx.sandbox.ctx.state.channels.get(STREAMER_USER_ID)! };
    expect(await refused({ is_live: true, title: 'Not this one', ...overrides })).toContain(message);
    expect(fx.sandbox.ctx.state.channels.get(STREAMER_USER_ID)).toEqual(before);
    expect(fx.emitted).toHaveLength(0);
  });

  it('a start after the sandbox clock, or an end before the start', async () => {
    const now = fx.sandbox.ctx.state.now();
    const future = new Date(now + 3_600_000).toISOString();
    expect(await refused({ is_live: true, started_at: future })).toContain(
      "overrides.started_at: must not be after the sandbox's clock",
    );
    await fire(STATUS, { overrides: { is_live: true, started_at: new Date(now - 60_000).toISOString() } });
    const before = { ...fx.sandbox.ctx.state.channels.get(STREAMER_USER_ID)! };
    expect(await refused({ is_live: false, ended_at: new Date(now - 120_000).toISOString() })).toContain(
      "overrides.ended_at: must not be before the stream's start",
    );
    expect(fx.sandbox.ctx.state.channels.get(STREAMER_USER_ID)).toEqual(before);
  });
});
