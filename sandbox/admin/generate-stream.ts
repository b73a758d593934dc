/**
 * The stream itself: going live or offline (a new livestream id, start and end times, viewers) and
 * metadata changes (title, category, language, mature flag), with the events Kick sends for each.
 */
import { toRfc3339 } from '../../electron/core/clock';
import { createUuid } from '../../electron/core/ids';
import { metadataPayload, statusPayload } from '../events/payloads';
import type { SandboxChannel, SandboxState } from '../state';
import { type GenerateContext, TriggerInputError } from './generate-context';
import { readOverride } from './overrides';
import { chance, intBetween, pick, type Rng } from './random';
import { STREAM_TITLES } from './vocabulary';

/**
 * Puts a channel live (a fresh livestream, `hasStreamed` set) or offline (`endedAtMs` set, viewers gone),
 * keeping category viewer totals in step. Returns false when the channel already was in that state.
 */
export function setChannelLive(state: SandboxState, channel: SandboxChannel, isLive: boolean, rng: Rng): boolean {
  if (channel.isLive === isLive) {
    return false;
  }
  const category = state.categories.get(channel.categoryId);
  const now = state.now();
  if (isLive) {
    channel.isLive = true;
    channel.livestreamId = createUuid();
    channel.startedAtMs = now;
    channel.endedAtMs = null;
    channel.hasStreamed = true;
    channel.viewerCount = intBetween(rng, 40, 2500);
    if (category) {
      category.viewerCount += channel.viewerCount;
    }
  } else {
    if (category) {
      category.viewerCount = Math.max(0, category.viewerCount - channel.viewerCount);
    }
    channel.isLive = false;
    channel.livestreamId = null;
    channel.endedAtMs = now;
    channel.viewerCount = 0;
  }
  return true;
}

/**
 * `livestream.status.updated`: toggles the channel (or sets it as `is_live` overrides). A trigger always
 * fires, so asking for the state the channel is already in re-announces it unchanged. `title` overrides
 * set the stream title. A `started_at` override is the stream's start in the world too, and an `ended_at`
 * one its end when it goes offline: every endpoint then answers the time the webhook said, so a client
 * that asks after a restart finds the same stream
 * ([sandbox notes](../../docs/sandbox.md#one-start-per-stream)).
 */
export function generateStatus(g: GenerateContext): void {
  const wanted = readOverride(g.overrides, 'is_live');
  const isLive = typeof wanted === 'boolean' ? wanted : !g.channel.isLive;
  const now = g.state.now();
  // Checked before anything changes: a refused trigger leaves the channel as it was.
  const startedAt = overrideTime(g, 'started_at', now);
  const endedAt = isLive ? undefined : overrideTime(g, 'ended_at', now);
  const start = startedAt ?? g.channel.startedAtMs;
  if (endedAt !== undefined && start !== null && endedAt < start) {
    throw new TriggerInputError(`overrides.ended_at: must not be before the stream's start (${toRfc3339(start)})`);
  }
  const title = readOverride(g.overrides, 'title');
  if (typeof title === 'string') {
    g.channel.streamTitle = title;
  }
  if (!setChannelLive(g.state, g.channel, isLive, g.rng) && !isLive && g.channel.endedAtMs === null) {
    g.channel.endedAtMs = now;
  }
  if (startedAt !== undefined) {
    g.channel.startedAtMs = startedAt;
  }
  if (endedAt !== undefined) {
    g.channel.endedAtMs = endedAt;
  }
  g.emit('livestream.status.updated', statusPayload(g.state, g.channel));
}

const RFC3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,9})?(Z|[+-]\d{2}:\d{2})$/i;

/**
 * An override of `field` as a time (ms), or undefined when absent (or null: no time, the payload's own
 * value for `ended_at` while live). A stream cannot start or end after the sandbox's clock.
 */
function overrideTime(g: GenerateContext, field: 'started_at' | 'ended_at', now: number): number | undefined {
  const value = readOverride(g.overrides, field);
  if (value === undefined || (value === null && field === 'ended_at')) {
    return undefined;
  }
  const ms = typeof value === 'string' && RFC3339.test(value) ? Date.parse(value) : Number.NaN;
  if (!Number.isFinite(ms)) {
    throw new TriggerInputError(`overrides.${field}: must be a time such as 2026-01-31T20:00:00Z`);
  }
  if (ms > now) {
    throw new TriggerInputError(`overrides.${field}: must not be after the sandbox's clock (${toRfc3339(now)})`);
  }
  return ms;
}

/**
 * `livestream.metadata.updated`: the streamer changes the title, the category or both (and rarely the
 * mature flag). Overrides of `metadata.title`, `metadata.category.id` (must exist), `metadata.language`
 * and `metadata.has_mature_content` are applied to the channel.
 */
export function generateMetadata(g: GenerateContext): void {
  const { channel, rng } = g;
  const title = readOverride(g.overrides, 'metadata.title');
  const categoryId = readOverride(g.overrides, 'metadata.category.id');
  const language = readOverride(g.overrides, 'metadata.language');
  const mature = readOverride(g.overrides, 'metadata.has_mature_content');
  if (categoryId !== undefined && (typeof categoryId !== 'number' || !g.state.categories.has(categoryId))) {
    throw new TriggerInputError(`overrides.metadata.category.id: no category ${JSON.stringify(categoryId)}`);
  }
  const steered = [title, categoryId, language, mature].some((v) => v !== undefined);
  // Unsteered, the streamer changes the title, the category or both, never nothing.
  const newTitle = !steered && chance(rng, 0.7);
  const newCategory = !steered && (!newTitle || chance(rng, 0.5));

  if (typeof title === 'string') {
    channel.streamTitle = title;
  } else if (newTitle) {
    channel.streamTitle = pick(
      rng,
      STREAM_TITLES.filter((t) => t !== channel.streamTitle),
    );
  }
  if (categoryId !== undefined) {
    moveCategory(g.state, channel, categoryId);
  } else if (newCategory) {
    const others = [...g.state.categories.keys()].filter((id) => id !== channel.categoryId);
    if (others.length > 0) {
      moveCategory(g.state, channel, pick(rng, others));
    }
  }
  if (typeof language === 'string') {
    channel.language = language;
  }
  if (typeof mature === 'boolean') {
    channel.isMature = mature;
  } else if (!steered && chance(rng, 0.05)) {
    channel.isMature = !channel.isMature;
  }
  g.emit('livestream.metadata.updated', metadataPayload(g.state, channel));
}

function moveCategory(state: SandboxState, channel: SandboxChannel, categoryId: number): void {
  const from = state.categories.get(channel.categoryId);
  const to = state.categories.get(categoryId);
  if (channel.isLive && from) {
    from.viewerCount = Math.max(0, from.viewerCount - channel.viewerCount);
  }
  if (channel.isLive && to) {
    to.viewerCount += channel.viewerCount;
  }
  channel.categoryId = categoryId;
}
