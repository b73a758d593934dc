/**
 * The channel and the subscription ids Greenroom held when it last reconciled, kept in the data dir
 * (`webhook-subscriptions.json`) so that after a restart the receiver can judge deliveries before Kick's
 * list has been read again ([design notes](../../../docs/design-notes.md#only-the-signed-in-channels-events)).
 *
 * Written whole to a temporary file and renamed over the old one, so a crash leaves the old file or the
 * new one. A file that cannot be read back is moved aside with one line and the run starts as a first run
 * would (it waits for the list); one that cannot be written is said once, and the ids are kept in memory.
 */
import { mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { readDataFile, RefusedPathError, writeDataFile } from '../../core/data-files';
import { asideReason, fsReason, moveAside } from '../../secrets/damaged-file';
import type { HeldSubscriptions } from '../receive/channel-gate';

export const HELD_SUBSCRIPTIONS_FILE = 'webhook-subscriptions.json';

/** More ids than Kick would let one app hold for one channel (one per event type, plus duplicates). */
const MAX_IDS = 1000;

export interface HeldSubscriptionsFile {
  /** What the last run saved, or null (none, or damaged and moved aside). */
  load(): HeldSubscriptions | null;
  /** Saves, unless it equals what is saved already. Never throws. */
  save(held: HeldSubscriptions | null): void;
}

export function openHeldSubscriptionsFile(
  dataDir: string,
  options: { log: (line: string) => void; nowMs: () => number },
): HeldSubscriptionsFile {
  const path = join(dataDir, HELD_SUBSCRIPTIONS_FILE);
  let lastSaved: string | null = null;
  let saidUnwritable = false;

  return {
    load() {
      let text: string | null;
      let why = 'was damaged';
      try {
        // Never through a link, nor from a pipe (electron/core/data-files.ts): such a thing is moved aside.
        text = readDataFile(path)?.toString('utf8') ?? null;
        if (text === null) {
          return null;
        }
      } catch (error) {
        if (!(error instanceof RefusedPathError)) {
          options.log(`webhooks: could not read ${path} (${fsReason(error)}); waiting for Kick's subscription list`);
          return null;
        }
        text = null;
        why = asideReason(error);
      }
      const held = text === null ? null : parseHeld(text);
      if (held) {
        lastSaved = text;
        return held;
      }
      try {
        const aside = moveAside(path, options.nowMs());
        options.log(`webhooks: ${path} ${why} and was moved to ${aside}; waiting for Kick's subscription list`);
      } catch (error) {
        options.log(`webhooks: ${path} is damaged and could not be moved aside (${fsReason(error)})`);
      }
      return null;
    },
    save(held) {
      if (held === null) {
        return;
      }
      const text = `${JSON.stringify({ version: 1, ...held })}\n`;
      if (text === lastSaved) {
        return;
      }
      try {
        mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
        writeDataFile(path, text);
        lastSaved = text;
      } catch (error) {
        if (!saidUnwritable) {
          saidUnwritable = true;
          options.log(
            `webhooks: could not save the held subscriptions to ${path} (${fsReason(error)}); ` +
              'after a restart, deliveries wait for Kick’s list',
          );
        }
      }
    },
  };
}

/** The saved shape, checked field by field; null when it is not that. */
function parseHeld(text: string): HeldSubscriptions | null {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return null;
  }
  if (typeof value !== 'object' || value === null) {
    return null;
  }
  const { version, broadcasterUserId, subscriptionIds } = value as Record<string, unknown>;
  if (
    version !== 1 ||
    !Number.isSafeInteger(broadcasterUserId) ||
    (broadcasterUserId as number) < 1 ||
    !Array.isArray(subscriptionIds) ||
    subscriptionIds.length > MAX_IDS ||
    !subscriptionIds.every((id) => typeof id === 'string' && id.length > 0 && id.length <= 128)
  ) {
    return null;
  }
  return { broadcasterUserId: broadcasterUserId as number, subscriptionIds: subscriptionIds as string[] };
}
