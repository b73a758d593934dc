/**
 * The app's overlays (docs/overlays.md): the hub every overlay socket joins, the overlay key, and the
 * panel's requests about them (URLs, a new key, test alerts, alert media, the alert queue's controls, whose
 * view is pushed as `alerts:changed`). Built by create-app; the panel server reaches the serving app's hub
 * through `GreenroomApp.overlays`.
 */
import type { AlertKind, OverlayKind } from '../../shared/overlays';
import { OVERLAY_EMOTE_HOST } from '../../shared/overlay-paths';
import { OVERLAY_KINDS, OVERLAY_MEDIA_PATH } from '../../shared/overlays';
import { type AlertControls, createAlertControls } from '../overlays/alert-controls';
import { EmoteCache, type EmoteImage } from '../overlays/emote-cache';
import { createViewPush } from '../overlays/view-push';
import type { OverlaysView } from '../../shared/views';
import { OVERLAY_CLOSE_KEY_CHANGED, OverlayHub } from '../overlays/overlay-hub';
import {
  loadOrCreateOverlayKey,
  openAlertProgress,
  regenerateOverlayKey,
  type MediaSlot,
  storeOverlayMedia,
} from '../overlays/overlay-files';
import { createPanelToken } from '../secrets/access-token';
import { fsReason } from '../secrets/damaged-file';
import type { ChatHistory } from '../services/chat-history';
import type { Feed } from '../services/feed';
import type { SettingsPort } from '../ipc/handlers';
import type { AppEventEmitter } from '../core/app-events';
import type { AppDeps } from './app-deps';
import type { SettingsStore } from './settings';

export interface AppOverlays {
  readonly hub: OverlayHub;
  key(): string;
  dataDir: string;
  /** The panel's view: each overlay's URL (when the panel server runs) and how many are open. */
  view(): OverlaysView;
  regenerateKey(): OverlaysView;
  testAlert(kind: AlertKind): null;
  /** Emote images for the chat box, from main's cache (emote-cache.ts). */
  emote(id: string): Promise<EmoteImage | null>;
  /** Pause, Skip, Clear, Replay and the too-old list (docs/overlays.md#controlling-the-alert-queue). */
  alerts: AlertControls;
  /** Copies an alert image or sound into the data dir; returns its stored name. */
  addMedia(fileName: string, base64: string, slot?: MediaSlot): { name: string };
  stop(): void;
}

/** What the overlays take from the app's adapters (create-app's AppDeps). */
export type OverlayAdapters = Pick<AppDeps, 'clock' | 'dataDir' | 'dockUrl' | 'log' | 'dispatcher'>;

/** The app's services the overlays read. */
export interface OverlayServices {
  settings: SettingsStore;
  chat: ChatHistory;
  feed: Feed;
  /** Followed for chat and settings; the alert queue's view is pushed on it. */
  events: AppEventEmitter;
  /** For the emote host the chat box loads images from. */
  appSettings: Pick<SettingsPort, 'view'>;
}

/**
 * The stored overlay key; on a data dir that refuses the write (read-only, full) a key for this run only,
 * logged, so Greenroom still comes up (its overlay URLs then change at the next start).
 */
function overlayKeyOrTemporary(dataDir: string, log: (line: string) => void): string {
  try {
    return loadOrCreateOverlayKey(dataDir);
  } catch (error) {
    log(
      `overlays: could not keep the overlay key in ${dataDir} (${fsReason(error)}); overlay URLs last until Greenroom closes`,
    );
    return createPanelToken();
  }
}

export function createAppOverlays(adapters: OverlayAdapters, services: OverlayServices): AppOverlays {
  const deps = { ...adapters, ...services };
  const emotes = new EmoteCache({
    host: () => services.appSettings.view().emoteHost,
    dispatcher: adapters.dispatcher,
    log: adapters.log,
  });
  let key = overlayKeyOrTemporary(deps.dataDir, deps.log);
  const hub = new OverlayHub({
    clock: deps.clock,
    settings: () => deps.settings.values().overlays,
    emoteHost: () => OVERLAY_EMOTE_HOST,
    // Same-origin: the overlay page loads them with its cookie.
    mediaUrl: (name) => `${OVERLAY_MEDIA_PATH}${name}`,
    progress: openAlertProgress(deps.dataDir, deps.log),
    chatMessages: () => deps.chat.messages(),
    feedItems: () => deps.feed.items(),
    log: deps.log,
    onAlertsChanged: () => alertsPush.changed(),
  });
  const alerts = createAlertControls({
    hub,
    settings: () => deps.settings.values().overlays.queue,
    clock: deps.clock,
    changed: () => alertsPush.changed(),
  });
  const alertsPush = createViewPush({
    read: () => alerts.view(),
    push: (view) => deps.events.emit('alerts:changed', view),
  });
  const unfollow = hub.follow(deps.events);
  // A moderator's !skipalert and the like: live chat only, after auto-moderation (ingest.ts).
  const unfollowChat = deps.events.on('kick:event', (event) => {
    if (event.kind === 'chat') {
      alerts.onChat(event.message);
    }
  });

  const view = (): OverlaysView => {
    const dock = deps.dockUrl?.() ?? null;
    const origin = dock === null ? null : new URL(dock).origin;
    const urls = Object.fromEntries(
      OVERLAY_KINDS.map((kind) => [kind, origin === null ? null : `${origin}/overlay/${kind}?key=${key}`]),
    ) as Record<OverlayKind, string | null>;
    return { urls, open: hub.counts(), alertsWaiting: hub.alerts.waiting() };
  };

  return {
    hub,
    key: () => key,
    emote: (id) => emotes.get(id),
    dataDir: deps.dataDir,
    view,
    regenerateKey() {
      key = regenerateOverlayKey(deps.dataDir);
      hub.closeAll(OVERLAY_CLOSE_KEY_CHANGED, 'overlay key changed');
      return view();
    },
    testAlert(kind) {
      hub.testAlert(kind);
      return null;
    },
    alerts,
    addMedia(fileName, base64, slot) {
      return { name: storeOverlayMedia(deps.dataDir, fileName, Buffer.from(base64, 'base64'), slot) };
    },
    stop() {
      unfollow();
      unfollowChat();
      alertsPush.stop();
      hub.stop();
      hub.closeAll(1012, 'Greenroom is restarting');
    },
  };
}
