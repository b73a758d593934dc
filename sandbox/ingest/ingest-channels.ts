/**
 * What publishing to the sandbox's ingest does to the simulated Kick
 * ([the ingest](../../docs/sandbox.md#kicks-ingest-in-the-sandbox)): the channel whose stream key was
 * given goes live, exactly as the admin API's live toggle puts it (a fresh livestream, its start time,
 * viewers) and with the same `livestream.status.updated`; the publish ending puts it offline and says so
 * again. A key no channel has, a channel that already has a publisher, or one that started too many
 * streams in the last minute, is refused and changes nothing.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import { setChannelLive } from '../admin/generate-stream';
import { defaultRng, type Rng } from '../admin/random';
import { emitEvent, statusPayload } from '../events/payloads';
import type { SandboxChannel, SandboxState } from '../state';
import type { PublishAnswer } from './rtmp-ingest';

/** Every channel's stream URL becomes the ingest's URL of this run (ports change at every start). */
export function pointStreamsAtIngest(state: SandboxState, url: string): void {
  for (const channel of state.channels.values()) {
    channel.streamUrl = url;
  }
}

const digest = (text: string): Buffer => createHash('sha256').update(text, 'utf8').digest();

/** The channel holding `key`; compared by digest in constant time, like any credential. */
function channelByKey(state: SandboxState, key: string): SandboxChannel | undefined {
  const wanted = digest(key);
  let found: SandboxChannel | undefined;
  for (const channel of state.channels.values()) {
    if (timingSafeEqual(digest(channel.streamKey), wanted)) {
      found = channel;
    }
  }
  return found;
}

/**
 * Streams one channel may start in a window: each start and end is a signed `livestream.status.updated`, so
 * a publisher reconnecting in a loop would flood every subscriber. OBS reconnects at most about once a
 * second and backs off, so it stays well under this; going live again right after going offline is fine
 * (docs/sandbox.md#kicks-ingest-in-the-sandbox).
 */
export const PUBLISH_RATE = { streams: 10, windowMs: 60_000 } as const;

/** The ingest's `publish` decision over this sandbox's state. */
export function createIngestPublisher(state: SandboxState, rng: Rng = defaultRng): (key: string) => PublishAnswer {
  /** Channels with a publisher now, by broadcaster id. */
  const publishing = new Set<number>();
  /** When each channel's recent streams started (within the window), by broadcaster id. */
  const starts = new Map<number, number[]>();
  return (key) => {
    const channel = channelByKey(state, key);
    if (!channel) {
      return { ok: false, reason: 'this stream key belongs to no channel' };
    }
    const id = channel.broadcasterUserId;
    if (publishing.has(id)) {
      return { ok: false, reason: 'this channel already has a stream coming in' };
    }
    const now = state.now();
    const recent = (starts.get(id) ?? []).filter((at) => now - at < PUBLISH_RATE.windowMs);
    if (recent.length >= PUBLISH_RATE.streams) {
      const waitS = Math.ceil((recent[0]! + PUBLISH_RATE.windowMs - now) / 1000);
      starts.set(id, recent);
      return {
        ok: false,
        reason: `this channel started ${PUBLISH_RATE.streams} streams in the last minute; try again in ${waitS} s`,
      };
    }
    starts.set(id, [...recent, now]);
    publishing.add(id);
    announce(state, channel, true, rng);
    return {
      ok: true,
      end: () => {
        publishing.delete(id);
        announce(state, channel, false, rng);
      },
    };
  };
}

/**
 * As the live toggle does it (`generateStatus`), minus the re-announcement: a channel the toggle already
 * put live stays on its livestream and hears nothing new. A channel dropped by a reset (the publish ends
 * after the world was replaced) is left alone.
 */
function announce(state: SandboxState, channel: SandboxChannel, live: boolean, rng: Rng): void {
  if (state.channels.get(channel.broadcasterUserId) !== channel) {
    return;
  }
  if (setChannelLive(state, channel, live, rng)) {
    emitEvent(state, 'livestream.status.updated', channel.broadcasterUserId, statusPayload(state, channel));
  }
}
