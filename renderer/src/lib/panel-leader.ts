/**
 * Which one of the panels open in one browser (a tab, a second tab, an OBS dock sharing the profile) speaks
 * for them all: only the leading panel shows notifications and plays the chime, so three panels do not
 * chime three times ([panel in a browser](../../../docs/panel-in-a-browser.md#notifications-in-a-browser)).
 *
 * The browser's Web Locks decide where it has them: every panel asks for one lock, the browser grants it to
 * one, and the next in line takes over the moment that panel closes. Where there are none, local storage
 * holds the leader's name and the time it last said it was there; a leader silent for `STALE_MS` is
 * replaced.
 */
import type { Clock } from './clock';

/** Whether this panel leads now. */
export interface Leadership {
  readonly leading: boolean;
  dispose(): void;
}

/** The slice of the Web Locks API used here. */
export interface LockManagerLike {
  request(name: string, callback: () => Promise<void> | void): Promise<unknown>;
}

export interface LeaderPage {
  navigator?: { locks?: LockManagerLike };
  localStorage?: {
    getItem(key: string): string | null;
    setItem(key: string, value: string): void;
    removeItem(key: string): void;
  };
}

const LOCK_NAME = 'greenroom.notifications';
const STORAGE_KEY = 'greenroom.notificationsLeader';
/** How often a leader without Web Locks says it is still there, and how long a silent one keeps the lead. */
export const HEARTBEAT_MS = 2000;
export const STALE_MS = 3 * HEARTBEAT_MS;

/** This panel's leadership among the panels of its browser. */
export function panelLeadership(clock: Clock, page: LeaderPage = globalThis): Leadership {
  const locks = page.navigator?.locks;
  if (locks) {
    return lockLeadership(locks);
  }
  if (page.localStorage) {
    return storageLeadership(clock, page.localStorage);
  }
  return { leading: true, dispose: () => undefined };
}

function lockLeadership(locks: LockManagerLike): Leadership {
  let leading = false;
  let disposed = false;
  let release: (() => void) | null = null;
  locks
    .request(LOCK_NAME, () => {
      if (disposed) {
        return;
      }
      leading = true;
      // Held until this panel goes; the browser then grants it to the next panel waiting.
      return new Promise<void>((resolve) => (release = resolve));
    })
    .catch(() => undefined);
  return {
    get leading() {
      return leading;
    },
    dispose() {
      disposed = true;
      leading = false;
      release?.();
    },
  };
}

function storageLeadership(clock: Clock, storage: NonNullable<LeaderPage['localStorage']>): Leadership {
  const me = `${clock.now()}-${Math.random().toString(36).slice(2)}`;
  const read = (): { id: string; at: number } | null => {
    try {
      const value = JSON.parse(storage.getItem(STORAGE_KEY) ?? 'null') as unknown;
      const record = value as { id?: unknown; at?: unknown } | null;
      return typeof record?.id === 'string' && typeof record.at === 'number' ? { id: record.id, at: record.at } : null;
    } catch {
      return null;
    }
  };
  const claim = (): boolean => {
    const current = read();
    if (current && current.id !== me && clock.now() - current.at < STALE_MS) {
      return false;
    }
    storage.setItem(STORAGE_KEY, JSON.stringify({ id: me, at: clock.now() }));
    return true;
  };
  claim();
  const stop = clock.setInterval(() => {
    if (read()?.id === me) {
      claim();
    }
  }, HEARTBEAT_MS);
  return {
    get leading() {
      return claim();
    },
    dispose() {
      stop();
      if (read()?.id === me) {
        storage.removeItem(STORAGE_KEY);
      }
    },
  };
}
