/**
 * The composition root: builds every main-process service from the resolved configuration and injected
 * adapters, and wires the event path (webhook bus → panel views → chat history / feed → `kick:event`).
 * Electron's main, the panel-only mode and the tests all call this; nothing here is module state.
 */
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { AppError } from '../../shared/errors';
import { Listeners } from '../../shared/listeners';
import type { AppSnapshot, FeedItem, HealthView } from '../../shared/views';
import type { Sandbox } from '../../sandbox/index';
import { createHandlers } from '../ipc/handlers';
import { linkPolicyFor } from '../ipc/external-links';
import { createRouter, type Router } from '../ipc/router';
import { AccountService } from '../services/account';
import { ChatHistory } from '../services/chat-history';
import { Chatters } from '../services/chatters';
import { Feed } from '../services/feed';
import { MOD_LOG_FILE, openModLogFile } from '../services/mod-log-file';
import { DEFAULT_MOD_LOG_SIZE, Moderation } from '../services/moderation';
import { type DesktopNotification, notificationFor } from '../services/notifications';
import { type AppEvents, createAppEvents } from '../core/app-events';
import { createAppAutomod } from './app-automod';
import { adBreakRecord, isAdBreakEvent } from './ad-break-journal';
import { createAppChannel } from './app-channel';
import { createAppChatBot } from './app-chat-bot';
import { createAppHistory } from './app-history';
import { createAppObs } from './app-obs';
import { setUpObsForKick } from '../obs/obs-setup';
import { createAppObsActions } from './app-obs-actions';
import { obsWebSocketLinkFactory } from '../obs/obs-websocket-link';
import { type AppOverlays, createAppOverlays } from './app-overlays';
import { createAppSettings } from './app-settings';
import { type AppLiveSocket, createAppLiveSocket } from './app-live-socket';
import { createAppRaids } from './app-raids';
import { createAppRoomState } from './app-room-state';
import { createHealthPush } from './health-push';
import { createIngest } from './ingest';
import { createLateGate } from './late-gate';
import { lateMarkRecord, lateMarksIn } from './late-marks';
import { createLiveMerge } from './live-merge';
import { createSignedLine } from './signed-line';
import { createLiveModeration } from './live-moderation';
import { LiveState } from './live-state';
import type { AppConfig } from './config';
import { openAppKick } from './app-kick';
import type { AppDeps } from './app-deps';

export type { AppDeps, SharedSandbox } from './app-deps';
import { APP_SANDBOX_FILE } from './embedded-sandbox';
import { openSettings } from './settings';
import type { WebhookPort } from './webhook-port';
import { unrefTimer } from '../core/scheduler';

/** A built app: the router both transports call, the events they forward, and its lifecycle. */
export interface GreenroomApp {
  config: AppConfig;
  router: Router;
  events: AppEvents;
  snapshot(): AppSnapshot;
  /** The desktop notification a feed item deserves under the current settings, or null. */
  notificationsFor(item: FeedItem): DesktopNotification | null;
  /** Restores the session and the journal, then starts webhooks (and the sandbox's activity). */
  start(): Promise<void>;
  stop(): Promise<void>;
  /** The embedded sandbox in sandbox mode. */
  sandbox?: Sandbox;
  /** The OBS overlays; the panel server serves them (electron/panel-server/overlay-routes.ts). */
  overlays: AppOverlays;
  /**
   * Kick's live chat connection: its typed events (`onEvent`) and its health. Its chat, deletions and bans join
   * the webhook path in `live-merge.ts` (../../docs/design-notes.md#chat-from-the-live-socket-first).
   */
  liveSocket: Pick<AppLiveSocket, 'onEvent' | 'health'>;
  /**
   * The secrets the app holds outside the secret store, for the logger to learn by value: the overlay key, the
   * client secret from the configuration and the last stream key read from Kick. Read before each log line, so
   * a new one is known before it could be logged: a getter, cheap.
   */
  heldSecrets(): readonly (string | null | undefined)[];
}

/** Builds the app (and, in sandbox mode, starts the embedded sandbox); call `start()` next. */
export async function createApp(config: AppConfig, adapters: AppDeps): Promise<GreenroomApp> {
  const { clock, log } = adapters;
  const settings = adapters.settings ?? openSettings(adapters.dataDir, { log, randomBytes });
  const events = createAppEvents(log);
  const { kick, embedded, closeOwnSandbox } = await openAppKick(config, adapters);

  // --- Services ---

  const chat = new ChatHistory({ capacity: settings.values().chatScrollback });
  const chatters = new Chatters();
  const feed = new Feed();
  // Scopes are read at each sign-in, so a change in the settings applies to the next one. The saved sign-in is
  // checked with Kick at start, and again until Kick answers (../../docs/chat-bot.md#live-status-comes-from-kick).
  const account = new AccountService({ kick, log, scopes: () => settings.values().scopes, setTimer: unrefTimer });
  const moderation = new Moderation({
    client: kick.client,
    broadcasterUserId: () => account.requireUserId(),
    chat,
    clock,
    onAction: (action) => events.emit('mod:action', action),
    onDeleted: (messageId) => events.emit('chat:deleted', { messageId }),
    onShown: (messageId) => events.emit('chat:shown', { messageId }),
    log,
    // Kept on disk: Kick sends no event for a deletion or an unban, so nothing else could restore them.
    store: openModLogFile(join(adapters.dataDir, MOD_LOG_FILE), {
      limit: DEFAULT_MOD_LOG_SIZE,
      log,
      notice: adapters.notice ?? log,
    }),
    chatters,
    notes: {
      get: (userId) => settings.values().modNotes[String(userId)] ?? '',
      set: (userId, note) => settings.setModNote(userId, note),
    },
  });
  // Main's one live status: Kick is asked at each sign-in and after a failed ask; the bot, the header and the
  // stream views all read it (../../docs/chat-bot.md#live-status-comes-from-kick).
  const live = new LiveState({
    read: () => channel.readChannel(),
    broadcasterUserId: () => account.userId(),
    now: () => clock.now(),
    setTimer: unrefTimer,
    log,
  });
  const channel = createAppChannel({
    client: kick.client,
    settings,
    account,
    feed,
    chat,
    events,
    live,
    log,
    // Kick sends no ad-break event: its acceptance of one run here starts the OBS action, and is journaled for
    // the recap, once per break id (../../docs/history.md#the-recap).
    adBreakStarted: (seconds, id) => {
      const broadcaster = account.userId();
      if (webhooks.recordLive && broadcaster !== null) {
        const { record, key } = adBreakRecord({ id, seconds, atMs: clock.now() }, broadcaster);
        webhooks.recordLive(record, key);
      }
      obsActions.adBreakStarted(seconds);
    },
  });

  const appSettings = createAppSettings({
    settings,
    config,
    secretStore: adapters.secretStore,
    // Read at each view, once the app is built (`obs` holds the one answer to "is a password kept?").
    obsHasPassword: () => obs.hasPassword(),
    sandboxEmoteHost: embedded?.sandbox.urls.api ?? null,
    sandboxAdmin: embedded
      ? { adminUrl: embedded.sandbox.urls.admin, tokenFile: join(adapters.dataDir, APP_SANDBOX_FILE) }
      : null,
    notApplied: adapters.notApplied ?? (() => null),
    // Read at each settings:update, after the receiver and the panel server started.
    boundPorts: () => ({
      panelUrl: adapters.dockUrl?.() ?? null,
      webhookPort: webhooks.health().receiver.port,
      sandboxUrls: embedded ? Object.values(embedded.sandbox.urls) : [],
    }),
  });

  // --- Webhooks ---

  const broadcasterListeners = new Listeners<[number | null]>((error) =>
    adapters.log(`app: a broadcaster listener failed: ${String(error)}`),
  );
  let webhooks: WebhookPort;
  try {
    webhooks = adapters.webhooks({
      config,
      clock,
      log,
      dataDir: adapters.dataDir,
      kick,
      sandbox: embedded?.sandbox ?? null,
      broadcasterUserId: () => account.userId(),
      onBroadcasterChange: (listener) => broadcasterListeners.add(listener),
      wantedEvents: () => settings.values().wantedEvents,
    });
  } catch (error) {
    await kick.close();
    await closeOwnSandbox();
    throw error;
  }
  // Kick's live chat connection: on while the switch is on and an account is signed in
  // (../../docs/settings.md#kicks-live-chat-connection). In sandbox mode the embedded sandbox plays the socket.
  const liveSocket = createAppLiveSocket({
    urls: () =>
      config.liveSocket ??
      (embedded
        ? {
            pusherUrl: embedded.sandbox.urls.socket,
            webUrl: embedded.sandbox.urls.web,
            siteUrl: embedded.sandbox.urls.web,
          }
        : null),
    settings,
    userId: () => account.userId(),
    onUserChange: (listener) => broadcasterListeners.add(() => listener()),
    channelSlug: async () => (await channel.readChannel())?.slug ?? null,
    clock,
    setTimer: unrefTimer,
    log,
  });
  const health = (): HealthView => ({
    mode: config.mode,
    ...webhooks.health(),
    secretStore: {
      backend: adapters.secretStore.backend ?? 'memory',
      degraded: adapters.secretStore.degraded ?? false,
    },
    liveSocket: { ...liveSocket.health(), ...(webhooks.trail ? { webhookTrail: webhooks.trail() } : {}) },
    history: history.health(),
  });
  const healthPush = createHealthPush({ read: health, push: (view) => events.emit('health:changed', view) });
  // The stream history (../../docs/history.md): fed from the journal, after each record is written.
  const history = createAppHistory({
    dataDir: adapters.dataDir,
    clock,
    chatDays: () => settings.values().history.chatDays,
    onSettingsChange: (listener) => settings.onChange(() => listener()),
    journal: webhooks.journal,
    modLog: () => moderation.actions(),
    note: (userId) => settings.values().modNotes[String(userId)] ?? '',
    push: (view) => events.emit('history:changed', view),
    statusChanged: () => healthPush.changed(),
    setTimer: unrefTimer,
    log,
  });

  const overlays = createAppOverlays(adapters, { settings, chat, feed, events, appSettings });
  const automod = createAppAutomod({ settings, moderation, clock, log });
  const chatBot = createAppChatBot({ client: kick.client, account, settings, live, clock, log, history });
  const obs = createAppObs({
    settings,
    secretStore: adapters.secretStore,
    linkFactory: adapters.obsLink ?? obsWebSocketLinkFactory({ log }),
    clock,
    log,
    // Only what Kick itself said since the sign-in: a live status read back from the journal may be stale.
    kickLive: () => {
      const facts = live.facts();
      return account.userId() === null || !facts.confirmed ? null : { live: facts.live };
    },
    onKickLiveChange: (listener) => live.onChange(() => listener()),
    health,
    push: (view) => events.emit('obs:changed', view),
    // The key is read and compared in main only (../../docs/obs.md#set-up-obs-for-kick).
    setupForKick: async (api, input) => {
      await account.requireUserId();
      const streamKey = () => channel.streamKey(account.view().scopes);
      return setUpObsForKick({ obs: () => api, streamKey, overlayUrls: () => overlays.view().urls, log }, input);
    },
  });
  // Beside the event path, never awaited by it (../../docs/obs.md#obs-actions-on-events).
  const obsActions = createAppObsActions({ obs: obs.api, settings, feed, events, clock, log });

  // Webhooks past the streamer's "late" age are recorded but not acted on (../../docs/design-notes.md#late-events).
  // A follow's only time is Kick's send time: while Kick delivers late, it is judged by Health's delay figure.
  const lateGate = createLateGate({
    settings,
    feed,
    events,
    deliveryDelayMs: () => webhooks.health().lag.p50Ms,
    // The verdict is journaled: that delay is gone by the next start, and the digest must come back whole.
    journalLate: (event) => {
      const broadcaster = account.userId();
      if (webhooks.recordLive && broadcaster !== null) {
        const { record, key } = lateMarkRecord(event.messageId, broadcaster, clock.now());
        webhooks.recordLive(record, key);
      }
    },
  });
  const ingest = createIngest({
    chat,
    chatters,
    feed,
    events,
    overlays: overlays.hub,
    automod,
    chatBot,
    live,
    streamChanged: () => live.refresh(),
    lateness: (event) => lateGate.lateness(event),
  });
  // Kick's public API has no raid event: raids come from the live socket only (../../docs/overlays.md#raids).
  // Raids pass the late gate and are journaled beside the webhooks, so a restart shows them once.
  const raids = createAppRaids({
    feed,
    events,
    overlays: overlays.hub,
    chatBot,
    obs: obsActions,
    late: lateGate,
    broadcasterUserId: () => account.userId(),
    recordLive: webhooks.recordLive ? (record, key) => webhooks.recordLive!(record, key) : null,
    clock,
    setTimer: unrefTimer,
    log,
  });

  // The room's modes, pinned message and cleared-chat lines: only the live socket says them
  // (../../docs/chat-tools.md#the-rooms-modes-and-pinned-message).
  const roomState = createAppRoomState({
    clock,
    setTimer: unrefTimer,
    connectionState: () => liveSocket.health().state,
    onConnectionChange: (listener) => liveSocket.onChange(listener),
    push: (view) => events.emit('chat:room-changed', view),
    lastMessageId: () => chat.messages().at(-1)?.messageId ?? null,
  });
  // Bans, timeouts and unbans by any moderator reach the mod log once, from whichever copy comes first
  // (../../docs/design-notes.md#other-moderators-bans-from-the-live-socket).
  const liveModeration = createLiveModeration({ clock, moderation, log });
  // The socket's chat joins the webhooks' by message id; its deletions and bans apply at once
  // (../../docs/design-notes.md#chat-from-the-live-socket-first).
  const liveMerge = createLiveMerge({
    clock,
    broadcasterUserId: () => account.userId(),
    recordLive: webhooks.recordLive ? (record, key, payload) => webhooks.recordLive!(record, key, payload) : null,
    deliver: (event) => {
      ingest(event, true);
      obsActions.onEvent(event, true);
    },
    chat,
    deleted: (messageId) => events.emit('chat:deleted', { messageId }),
    moderated: (event) => liveModeration.onLiveEvent(event),
    log,
  });

  // Kick's signed copy of a line the live socket told otherwise takes its place (../../docs/design-notes.md#chat-from-the-live-socket-first).
  const signedLine = createSignedLine({
    chat,
    automod,
    chatBot,
    replaced: (message) => events.emit('chat:replaced', { message }),
    log,
  });

  // --- Wiring ---

  let lastUserId: number | null = null;
  const unsubscribers = [
    webhooks.bus.onAny((event) => {
      const late = lateGate.judge(event);
      if (signedLine(event, late)) {
        return;
      }
      ingest(event, true);
      // A late redemption is marked seen without acting, so its later status update does not act either.
      obsActions.onEvent(event, !late);
      lateGate.recorded(event, late);
      liveModeration.onWebhook(event);
    }),
    webhooks.onHealthChange(() => healthPush.changed()),
    liveSocket.onChange(() => healthPush.changed()),
    liveSocket.onEvent((event) => liveMerge.onEvent(event)),
    liveSocket.onEvent((event) => roomState.onEvent(event)),
    () => roomState.stop(),
    liveSocket.onEvent((event) => raids.onEvent(event)),
    () => raids.stop(),
    () => healthPush.stop(),
    () => live.stop(),
    live.onChange((view) => events.emit('stream:changed', view)),
    live.onChange(() => history.liveStatus(live.facts())),
    account.onChange((view) => {
      events.emit('session:changed', view);
      if (view.userId !== lastUserId && (view.userId !== null || !view.signedIn)) {
        lastUserId = view.userId;
        broadcasterListeners.emit(lastUserId);
        // A sign-in (the saved one at start, once Kick accepted it) asks Kick whether the stream is live; a
        // sign-out tells the panels their figures are as of now.
        if (lastUserId === null) {
          live.signedOut();
        } else {
          live.signedIn(lastUserId);
        }
      }
    }),
    settings.onChange((values) => {
      chat.resize(values.chatScrollback);
      events.emit('settings:changed', appSettings.view());
    }),
  ];

  const router = createRouter({
    log,
    handlers: createHandlers({
      snapshot: () => snapshot(),
      health,
      account,
      chat,
      feed,
      moderation,
      channel,
      chatBot,
      settings: appSettings,
      openExternal: adapters.openExternal,
      linkPolicy: () => linkPolicyFor(embedded?.sandbox.urls),
      overlays,
      automod,
      obs,
      roomState: () => roomState.view(),
      history,
      shell: adapters.shell,
      ...(adapters.diagnostics ? { diagnostics: adapters.diagnostics } : {}),
      restart:
        adapters.restart ??
        (() =>
          Promise.reject(new AppError('NotConfigured', 'this Greenroom cannot restart itself; quit and start it'))),
      resetSandbox: async () => {
        if (!embedded) {
          throw new AppError(
            'NotConfigured',
            'Greenroom is connected to Kick, not to the sandbox; there is nothing to reset',
          );
        }
        // Signed out first, so the tokens are revoked and forgotten before the world that knew them goes.
        await account.signOut();
        await embedded.reset();
      },
      log,
    }),
  });

  const snapshot = (): AppSnapshot => ({
    mode: config.mode,
    sandboxNotice: config.sandboxNotice,
    broadcasterUserId: account.userId(),
    account: account.view(),
    health: health(),
    settings: appSettings.view(),
    dockUrl: adapters.dockUrl?.() ?? null,
    notices: adapters.notices?.() ?? [],
  });

  config.warnings.forEach((warning) => log(`config: ${warning}`));

  let starting: Promise<void> | null = null;
  let stopping: Promise<void> | null = null;
  return {
    config,
    router,
    events,
    snapshot,
    notificationsFor: (item) => notificationFor(item, settings.values().notifications),
    sandbox: embedded?.sandbox,
    overlays,
    liveSocket,
    heldSecrets: () => [overlays.key(), config.kick?.clientSecret, channel.streamKeySeen()],
    start() {
      starting ??= (async () => {
        // Not awaited: OBS connects beside the rest, and its being down never holds up the start.
        obs.start();
        await kick.session.load();
        account.start();
        // The journal is read back before anything live can arrive: restore() is the only way to start().
        const restored = await webhooks.restore();
        const marks = lateMarksIn(restored.events);
        lateGate.restoring(marks.late);
        for (const event of restored.events) {
          if (marks.isMark(event) || isAdBreakEvent(event) || raids.restore(event)) {
            continue;
          }
          // Judged as it was live, so the feed's late marks and the late digest come back as they were.
          const late = lateGate.judge(event);
          ingest(event, false);
          obsActions.onEvent(event, false);
          lateGate.recorded(event, late, false);
        }
        lateGate.restoring(new Set());
        overlays.hub.endReplay();
        moderation.reapplyDeletions();
        // Not awaited: a rebuild from a full journal takes seconds, and webhooks must not wait on it. What
        // arrives meanwhile waits in the history, which the panel hears is "starting".
        void history.open();
        history.liveStatus(live.facts());
        await restored.start();
        embedded?.startActivity();
        liveSocket.start();
        healthPush.flush();
      })();
      return starting;
    },
    stop() {
      stopping ??= (async () => {
        unsubscribers.forEach((unsubscribe) => unsubscribe());
        liveSocket.stop();
        [overlays, automod, chatBot].forEach((part) => part.stop());
        obsActions.stop();
        await obs.stop();
        account.stop();
        // The sandbox goes first, so its delivery engine does not post to a receiver that is closing. A shared
        // one keeps running: what it fails to deliver now it retries, and the next app's receiver takes it.
        await closeOwnSandbox();
        try {
          await webhooks.stop();
        } catch (error) {
          log(`app: stopping webhooks failed: ${error instanceof Error ? error.message : String(error)}`);
        }
        // After the journal closed: nothing more is written, so the store closes level with it.
        history.close();
        await kick.close();
      })();
      return stopping;
    },
  };
}
