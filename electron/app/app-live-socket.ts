/**
 * Kick's live chat connection in the app ([Settings](../../docs/settings.md#kicks-live-chat-connection)): on while
 * the switch is on and a Kick account is signed in, off otherwise, applied live. The ids come from the settings
 * when they belong to the signed-in account (or were entered and no account claimed them yet), else from one
 * lookup on Kick's website, kept for next time. Typed events leave through `onEvent` only: joining them with the
 * webhooks is the event path's job, not this module's.
 */
import { randomUUID } from 'node:crypto';
import type { LiveEvent } from '../../shared/kick/live-events';
import type { LiveSocketHealthView } from '../../shared/views';
import type { Clock } from '../core/clock';
import { centrifugeTransport } from '../live-socket/centrifuge-transport';
import { type ChannelIds, lookUpChannelIds } from '../live-socket/channel-ids';
import type { Result } from '../../shared/errors';
import { discoverTarget } from '../live-socket/discovery';
import { LiveConnection } from '../live-socket/live-connection';
import type { LiveTransports } from '../live-socket/live-transport';
import { pusherTransport } from '../live-socket/pusher-transport';
import type { WebFetch } from '../live-socket/web-fetch';
import type { LiveSocketUrls } from './config';
import type { SettingsStore } from './settings';
import type { SetTimer } from '../core/scheduler';

export interface AppLiveSocketDeps {
  /** Where to connect; read at each connect, since the embedded sandbox's are known only once it runs. */
  urls: () => LiveSocketUrls | null;
  settings: SettingsStore;
  /** The signed-in broadcaster, or null. */
  userId: () => number | null;
  onUserChange: (listener: () => void) => () => void;
  /** The signed-in channel's slug, for the id lookup; null when Kick did not say. */
  channelSlug: () => Promise<string | null>;
  clock: Clock;
  setTimer: SetTimer;
  log: (line: string) => void;
  fetch?: WebFetch;
  transports?: LiveTransports;
  random?: () => number;
}

export interface AppLiveSocket {
  health(): LiveSocketHealthView;
  onEvent(listener: (event: LiveEvent) => void): () => void;
  onChange(listener: () => void): () => void;
  /** Starts following the switch and the sign-in. */
  start(): void;
  stop(): void;
}

export function createAppLiveSocket(deps: AppLiveSocketDeps): AppLiveSocket {
  const { settings, log } = deps;
  const fetch: WebFetch = deps.fetch ?? ((url, init) => globalThis.fetch(url, init));
  // One client id per app run, as Kick's web client makes one per page.
  const clientId = randomUUID();

  const ids = async (): Promise<Result<ChannelIds, string>> => {
    const userId = deps.userId();
    if (userId === null) {
      return { ok: false, error: 'not signed in' };
    }
    const saved = settings.values().liveSocket;
    if (saved.channelId !== null && saved.chatroomId !== null && (saved.idsFor === userId || saved.idsFor === null)) {
      if (saved.idsFor === null) {
        claim(userId, { channelId: saved.channelId, chatroomId: saved.chatroomId });
      }
      return { ok: true, value: { channelId: saved.channelId, chatroomId: saved.chatroomId } };
    }
    const urls = deps.urls();
    const slug = await deps.channelSlug();
    if (urls === null || slug === null) {
      return { ok: false, error: urls === null ? 'no web host to ask' : "the channel's name is not known yet" };
    }
    const found = await lookUpChannelIds(fetch, urls.siteUrl, slug);
    if (!found.ok) {
      log(`live socket: Kick's website did not give the channel's ids (${found.error}); Settings asks for them`);
      return found;
    }
    claim(userId, found.value);
    return found;
  };

  /** Keeps ids for `userId`, so the next start needs no lookup. */
  const claim = (userId: number, found: ChannelIds) => {
    try {
      settings.setLiveSocket({ ...settings.values().liveSocket, ...found, idsFor: userId });
    } catch (error) {
      // Not kept: asked again next time, and this connection goes ahead with them.
      log(`live socket: the channel's ids could not be saved: ${String(error)}`);
    }
  };

  const connection = new LiveConnection({
    clock: deps.clock,
    setTimer: deps.setTimer,
    random: deps.random ?? Math.random,
    transports: deps.transports ?? { pusher: pusherTransport, centrifugo: centrifugeTransport },
    ids,
    discover: (found) => {
      const urls = deps.urls();
      if (urls === null) {
        return Promise.reject(new Error('no live socket URLs'));
      }
      return discoverTarget({
        fetch,
        webUrl: urls.webUrl,
        pusherUrl: urls.pusherUrl,
        channelId: found.channelId,
        clientId,
        log,
      });
    },
    log,
  });

  let wanted = false;
  let appliedIds = '';
  const apply = () => {
    const values = settings.values().liveSocket;
    const next = values.enabled && deps.userId() !== null;
    const idsKey = `${values.channelId}/${values.chatroomId}/${deps.userId()}`;
    if (next && wanted && idsKey !== appliedIds && connection.view().state === 'needs-ids') {
      // The streamer entered the ids Settings asked for: connect with them now.
      connection.stop();
    }
    appliedIds = idsKey;
    if (next) {
      connection.start();
    } else if (wanted) {
      connection.stop();
    }
    wanted = next;
  };

  const unsubscribers: (() => void)[] = [];
  return {
    health: () => connection.view(),
    onEvent: (listener) => connection.onEvent(listener),
    onChange: (listener) => connection.onChange(listener),
    start() {
      unsubscribers.push(
        settings.onChange(() => apply()),
        deps.onUserChange(() => {
          // Another account (or none): the old connection's channels are not this one's.
          connection.stop();
          wanted = false;
          apply();
        }),
      );
      apply();
    },
    stop() {
      unsubscribers.splice(0).forEach((unsubscribe) => unsubscribe());
      connection.stop();
    },
  };
}
