/**
 * The composition root of the panel: every state class built once over one PanelApi, and the one bridge
 * through which main's events enter Svelte (`connect()`, called from App's `$effect`, returns the
 * unsubscribe). Nothing here is a module-level singleton; App creates one instance.
 */
import type { PanelApi } from '../../../../shared/panel-api';
import type { AppSnapshot } from '../../../../shared/views';
import { chatFlushFrames, systemClock, type Clock, type FrameScheduler } from '../clock';
import { copyText, type CopyFn } from '../clipboard';
import { openInThisBrowser, type OpenLinkFn } from '../open-link';
import { type ChimeFn, playChime } from '../chime';
import { AdsState } from './ads.svelte';
import { AlertQueueState } from './alert-queue.svelte';
import { AutomationState } from './automation.svelte';
import { ChatState } from './chat.svelte';
import { ChatToolsState } from './chat-tools.svelte';
import { ComposerState } from './composer.svelte';
import { ConnectionState, type ConnectionSource } from './connection.svelte';
import { FeedState } from './feed.svelte';
import type { GoneCause } from './held-error.svelte';
import { HealthState } from './health.svelte';
import { HistoryState } from './history.svelte';
import { LeaderboardState } from './leaderboard.svelte';
import { ModerationState } from './moderation.svelte';
import { ObsState } from './obs.svelte';
import { RedemptionsState } from './redemptions.svelte';
import { RewardsState } from './rewards.svelte';
import { RoomState } from './room-state.svelte';
import { SessionState } from './session.svelte';
import { SettingsState } from './settings.svelte';
import { SetupWizardState } from './setup-wizard.svelte';
import { StreamInfoState } from './stream-info.svelte';
import { UserCardState } from './user-card.svelte';
import { ViewRefresh } from './view-refresh';

/** What the panel runs on besides the API; tests replace each. */
export interface PanelDeps {
  /** The chat flush's frames (`chatFlushFrames`): the chat's alone, as they keep the time of its last flush. */
  scheduler: FrameScheduler;
  clock: Clock;
  copy: CopyFn;
  /** "Open link": main's system browser in the desktop window, a new tab in a browser or dock. */
  openLink: OpenLinkFn;
  /** The transport's status; absent in tests and wherever the link cannot drop. */
  connection: ConnectionSource | null;
  /** The highlight sound. */
  chime: ChimeFn;
}

export const defaultDeps: PanelDeps = {
  scheduler: chatFlushFrames(),
  clock: systemClock,
  copy: copyText,
  openLink: openInThisBrowser,
  connection: null,
  chime: playChime,
};

/** All panel state. */
export class AppState {
  readonly api: PanelApi;
  readonly deps: PanelDeps;
  readonly connection: ConnectionState;
  readonly session: SessionState;
  readonly chat: ChatState;
  readonly chatTools: ChatToolsState;
  readonly composer: ComposerState;
  readonly mod: ModerationState;
  readonly card: UserCardState;
  readonly feed: FeedState;
  readonly redemptions: RedemptionsState;
  readonly rewards: RewardsState;
  readonly ads: AdsState;
  readonly stream: StreamInfoState;
  readonly leaderboard: LeaderboardState;
  readonly health: HealthState;
  readonly settings: SettingsState;
  readonly automation: AutomationState;
  readonly wizard: SetupWizardState;
  readonly alertQueue: AlertQueueState;
  /** OBS as main sees it (obs.svelte.ts). */
  readonly obs: ObsState;
  /** The chat room's modes, pinned message and cleared-chat lines (room-state.svelte.ts). */
  readonly room: RoomState;
  /** The stream history: past streams, recaps, a viewer's story (history.svelte.ts). */
  readonly history: HistoryState;
  /** Reloads the views that load from main when an event, a reconnect or a sign-in changes them. */
  readonly views: ViewRefresh;
  #started = $state(false);

  constructor(api: PanelApi, deps: Partial<PanelDeps> = {}) {
    this.api = api;
    this.deps = { ...defaultDeps, ...deps };
    this.connection = new ConnectionState(this.deps.connection, this.deps.clock);
    // A sign-in after start loads what only a signed-in panel shows (the header names the channel), and
    // ends an error a signed-out panel left under the chat box.
    this.session = new SessionState(api, () => {
      this.composer.clearError();
      this.#clearEnded('sign-in');
      if (this.#started) {
        void Promise.all(this.#loadSignedIn());
      }
    });
    this.chatTools = new ChatToolsState(this.deps.chime, this.deps.clock);
    this.chat = new ChatState(api, this.deps.scheduler, this.chatTools);
    this.composer = new ComposerState(
      api,
      this.session,
      () => this.chat.messages,
      () => this.connection.cutOff,
    );
    this.mod = new ModerationState(api, this.chat);
    this.card = new UserCardState(api, this.chat, this.mod);
    this.feed = new FeedState(api);
    this.redemptions = new RedemptionsState(api, (id, status) => this.feed.setRedemptionStatus(id, status), {
      clock: this.deps.clock,
      reloadSoon: () => this.views.changed('redemptions'),
    });
    this.rewards = new RewardsState(api, this.deps.clock);
    this.ads = new AdsState(api, this.deps.clock, () => (this.stream.info ? this.stream.isLive : null));
    this.stream = new StreamInfoState(api, this.deps.clock);
    this.leaderboard = new LeaderboardState(api, this.deps.clock);
    this.health = new HealthState(api);
    this.settings = new SettingsState(api);
    this.automation = new AutomationState(api);
    this.wizard = new SetupWizardState(this.session, this.settings, this.health);
    this.alertQueue = new AlertQueueState(api);
    this.obs = new ObsState(api, this.deps.clock);
    this.room = new RoomState(api);
    this.history = new HistoryState(api, this.deps.clock);
    this.views = new ViewRefresh(
      {
        redemptions: this.redemptions,
        rewards: this.rewards,
        ads: this.ads,
        stream: this.stream,
        kicks: this.leaderboard,
      },
      this.rewards,
      this.deps.clock,
    );
  }

  /** The snapshot has arrived (the shell can render beyond its loading state). */
  get started(): boolean {
    return this.#started;
  }

  /** Subscribes to every event main pushes; returns the unsubscribe. */
  connect(): () => void {
    const offs = [
      this.api.on('kick:event', (event) => {
        if (event.kind === 'chat') {
          this.chat.receive(event.message);
          return;
        }
        this.feed.add(event.item);
        if (event.kind === 'redemption' || event.item.kind === 'redemption') {
          this.redemptions.onEvent(event.item);
        }
        this.views.onEvent(event.item);
      }),
      this.api.on('chat:deleted', ({ messageId }) => this.chat.markDeleted(messageId)),
      // Auto-moderation's Undo showed a removed message again.
      this.api.on('chat:shown', ({ messageId }) => this.chat.markDeleted(messageId, false)),
      // Kick's signed words for a line the live socket told otherwise.
      this.api.on('chat:replaced', ({ message }) => this.chat.replace(message)),
      this.api.on('mod:action', (action) => this.mod.record(action)),
      this.api.on('session:changed', (account) => {
        const wasSignedIn = this.session.signedIn;
        this.session.applyAccount(account);
        // Signed out: what the views show is no longer the streamer's to act on; each says so, and since when.
        if (wasSignedIn && !account.signedIn) {
          void Promise.all(this.views.reloadAll());
        }
      }),
      this.api.on('health:changed', (health) => this.health.apply(health)),
      this.api.on('settings:changed', (settings) => {
        this.settings.apply(settings, false);
        this.chat.setLimit(settings.chatScrollback);
        const wasIgnored = this.chatTools.settings.ignoredUsers;
        this.chatTools.configure(settings.chatTools);
        this.chat.refilter();
        // Someone no longer ignored: their lines main still keeps come back into the scrollback.
        if (wasIgnored.some((name) => !settings.chatTools.ignoredUsers.includes(name))) {
          void this.chat.loadHistory();
        }
        this.automation.apply(settings);
      }),
      this.api.on('app:restarted', ({ message }) => void this.#restarted(message)),
      // Main reads the channel once when it changes and pushes it to every panel.
      this.api.on('stream:changed', (channel) => this.stream.applyPushed(channel)),
      this.api.on('alerts:changed', (view) => this.alertQueue.apply(view)),
      this.api.on('obs:changed', (view) => this.obs.apply(view)),
      this.api.on('chat:room-changed', (view) => this.room.apply(view)),
      this.api.on('history:changed', (view) => this.history.apply(view)),
      this.obs.startTicking(),
      // Another panel changed rewards or ads, which Kick sends no event for.
      this.api.on('views:changed', ({ view }) => this.views.changed(view)),
      // Back after a drop: whatever went wrong while cut off is no longer true, and everything is read again.
      this.connection.connect(() => {
        this.composer.clearError();
        this.session.clearLoginError();
        this.#clearEnded('reconnect');
        void this.start();
      }),
    ];
    return () => {
      for (const off of offs) {
        off();
      }
    };
  }

  /** Loads the snapshot, then restores chat, feed and the mod log from main. */
  async start(): Promise<AppSnapshot | null> {
    const wasSignedIn = this.session.signedIn;
    const snapshot = await this.session.load();
    if (!snapshot) {
      return null;
    }
    this.health.apply(snapshot.health);
    this.settings.apply(snapshot.settings);
    this.chat.setLimit(snapshot.settings.chatScrollback);
    this.chatTools.configure(snapshot.settings.chatTools);
    this.automation.apply(snapshot.settings);
    this.#started = true;
    this.wizard.openOnFirstRun(snapshot.settings);
    const loads = [
      this.chat.loadHistory(),
      this.feed.loadHistory(),
      this.mod.loadLog(),
      this.alertQueue.load(),
      this.obs.load(),
      this.room.load(),
    ];
    // Back after a drop or a restart of main's app: the history shown before may have moved on meanwhile.
    if (this.history.loadState.requested) {
      loads.push(this.history.load());
    }
    if (snapshot.account.signedIn) {
      if (!wasSignedIn) {
        // Signed in while the link was down: no sign-in event reached this panel; the snapshot says so.
        this.#clearEnded('sign-in');
      }
      loads.push(...this.#loadSignedIn());
    } else {
      // Started again signed out (a reconnect): views shown before say they could not be read, and since when.
      loads.push(...this.views.reloadAll());
    }
    await Promise.all(loads);
    return snapshot;
  }

  /**
   * Every error a view keeps beside a control goes when `cause` ended what caused it: the link is back, or
   * the streamer signed in (held-error.svelte.ts). Load errors need no rule: those views load again then.
   */
  #clearEnded(cause: GoneCause): void {
    for (const s of [this.stream, this.rewards, this.ads, this.automation, this.card, this.mod, this.settings]) {
      s.clearIfEnded(cause);
    }
  }

  /**
   * What only a signed-in panel can load: the queue, and the channel the header names; and every view shown
   * before, which loaded signed out (or before a drop) and would otherwise keep saying so.
   */
  #loadSignedIn(): Promise<void>[] {
    return this.views.reloadAll(['redemptions', 'stream']);
  }

  /**
   * Main rebuilt its app for saved settings (credentials, tunnel, …): the mode, the account and the channel
   * may all be different, so what belonged to the old one is dropped and everything loads again.
   */
  async #restarted(message: string): Promise<void> {
    this.settings.noteRestarted(message);
    this.views.dispose();
    for (const s of [this.redemptions, this.rewards, this.ads, this.stream, this.leaderboard]) {
      s.reset();
    }
    await this.start();
  }

  /** Stops timers (countdowns, debounces). */
  dispose(): void {
    this.ads.dispose();
    this.views.dispose();
  }

  reset(): void {
    this.#started = false;
    for (const s of [
      this.connection,
      this.session,
      this.chat,
      this.composer,
      this.mod,
      this.card,
      this.feed,
      this.redemptions,
      this.rewards,
      this.ads,
      this.stream,
      this.leaderboard,
      this.health,
      this.settings,
      this.wizard,
      this.alertQueue,
      this.obs,
      this.room,
      this.history,
    ]) {
      s.reset();
    }
  }
}
