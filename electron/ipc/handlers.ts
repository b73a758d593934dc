/**
 * The contract's handlers, built from the services: each is a thin call into one service, so the logic
 * stays testable without a transport. Arguments arrive already validated by the router.
 */
import type { AppSnapshot, DiagnosticsView, HealthView, SettingsView } from '../../shared/views';
import type { AutomodVerdict } from '../../shared/automod';
import type { InvokeArgs } from '../../shared/ipc-contract';
import type { KickChatSendResult } from '../../shared/kick/resources';
import type { AlertKind } from '../../shared/overlays';
import type { OverlaysView } from '../../shared/views';
import type { AlertControls } from '../overlays/alert-controls';
import type { MediaSlot } from '../overlays/overlay-files';
import { type HistoryPort, unavailableHistory } from '../history/history-port';
import type { AccountService } from '../services/account';
import type { ChannelOps } from '../services/channel-ops';
import type { ChatHistory } from '../services/chat-history';
import type { Feed } from '../services/feed';
import type { Moderation } from '../services/moderation';
import type { ObsPort } from '../obs/obs-port';
import { AppError } from '../../shared/errors';
import { findChatLinks } from '../../shared/links';
import { EMPTY_ROOM_STATE, type RoomStateView } from '../../shared/room-state';
import { type ExternalLinkPolicy, isAllowedExternalUrl } from './external-links';
import type { InvokeHandlers, SendHandlers } from './router';

/** Writes the diagnostics file from what the app knows now (electron/core/diagnostics.ts). */
export type DiagnosticsPort = (parts: { settings: SettingsView; health: HealthView }) => DiagnosticsView;

/** Window actions; absent in panel-only mode, where there is no window to pop out. */
export interface ShellPort {
  popOutChat(): void;
  toggleCompanion(): void;
}

/** A settings change as the router validated it. */
export type SettingsPatch = InvokeArgs<'settings:update'>[0];

/** Settings as the panel edits them. */
export interface SettingsPort {
  view(): SettingsView;
  update(patch: SettingsPatch): SettingsView;
  /** Saves the client id in the settings and the secret in the SecretStore. */
  setCredentials(input: { clientId: string; clientSecret: string }): Promise<SettingsView>;
}

/** The overlays as the panel controls them (app/app-overlays.ts builds them). */
export interface OverlaysPort {
  view(): OverlaysView;
  regenerateKey(): OverlaysView;
  testAlert(kind: AlertKind): null;
  alerts: AlertControls;
  addMedia(fileName: string, base64: string, slot?: MediaSlot): { name: string };
}

/** The services and ports the handlers call. The app implements each port; the handlers never import the app. */
export interface HandlerDeps {
  snapshot: () => AppSnapshot;
  health: () => HealthView;
  account: AccountService;
  chat: ChatHistory;
  feed: Feed;
  moderation: Moderation;
  channel: ChannelOps;
  /** The streamer's messages go through the one outgoing chat queue, ahead of anything automatic. */
  chatBot: {
    sendManual(message: {
      content: string;
      as: 'bot' | 'user';
      replyToMessageId?: string;
    }): Promise<KickChatSendResult>;
  };
  settings: SettingsPort;
  openExternal: (url: string) => Promise<void>;
  /** Read at each request: the sandbox's origins are known only once it listens. */
  linkPolicy: () => ExternalLinkPolicy;
  shell?: ShellPort;
  overlays: OverlaysPort;
  /** Auto-moderation's dry run for the rule editor. */
  automod: { test(content: string, badges: string[]): AutomodVerdict | null };
  /** "Restart now": builds the app again from the saved settings, in this process (launch/app-host.ts). */
  restart: () => Promise<void>;
  /** OBS over its websocket (docs/obs.md). */
  obs: ObsPort;
  /** "Reset the sandbox": signs out and puts the embedded sandbox's world back to its start. */
  resetSandbox: () => Promise<void>;
  /** The room's modes, pinned message and cleared-chat lines (app/app-room-state.ts); none where no socket runs. */
  roomState?: () => RoomStateView;
  /** The stream history (app/app-history.ts); absent, every history question is answered "unavailable". */
  history?: HistoryPort;
  /** "Save diagnostics" (docs/logging.md); absent where the entry keeps no log. */
  diagnostics?: DiagnosticsPort;
  log: (line: string) => void;
}

/** One handler per contract channel, each a thin call into a service. */
export function createHandlers(deps: HandlerDeps): { invoke: InvokeHandlers; send: SendHandlers } {
  const { account, moderation, channel, settings } = deps;
  const history = deps.history ?? unavailableHistory();
  const invoke: InvokeHandlers = {
    'app:snapshot': () => Promise.resolve(deps.snapshot()),
    'app:restart': async () => {
      await deps.restart();
      return null;
    },
    'auth:start-login': (input) => account.startLogin({ scopes: input.scopes }),
    'auth:cancel-login': async () => {
      await account.cancelLogin();
      return null;
    },
    'auth:sign-out': () => account.signOut(),
    'sandbox:reset': async () => {
      await deps.resetSandbox();
      return null;
    },

    'chat:history': () => Promise.resolve(deps.chat.messages()),
    'chat:send': (input) =>
      deps.chatBot.sendManual({ content: input.content, as: input.as, replyToMessageId: input.replyToMessageId }),
    'chat:delete': async (input) => {
      await moderation.deleteMessage(input.messageId);
      return null;
    },
    'chat:room-state': () => Promise.resolve(deps.roomState?.() ?? structuredClone(EMPTY_ROOM_STATE)),

    'mod:timeout': (input) => moderation.timeout(input),
    'mod:ban': (input) => moderation.ban(input),
    'mod:unban': (input) => moderation.unban(input),
    'mod:log': () => Promise.resolve(moderation.actions()),
    'mod:user-card': (input) => moderation.userCard(input.userId),
    'mod:set-note': (input) => moderation.setNote(input.userId, input.note),
    'mod:undo-auto': (input) => moderation.undoAutomatic(input.actionId),

    'feed:history': () => Promise.resolve(deps.feed.items()),
    'redemptions:list': (input) => channel.listRedemptions(input.status),
    'redemptions:accept': (input) => channel.accept(input.ids),
    'redemptions:reject': (input) => channel.reject(input.ids),

    'rewards:list': () => channel.listRewards(),
    'rewards:create': (input) => channel.createReward(input),
    'rewards:update': (input) => channel.updateReward(input.id, input.patch),
    'rewards:delete': async (input) => {
      await channel.deleteReward(input.id);
      return null;
    },

    'ads:status': () => channel.adStatus(),
    'ads:enroll': async () => {
      await channel.enrollInAds();
      return null;
    },
    'ads:run': (input) => channel.runAdBreak(input.seconds),

    // Signed out there is no channel to show; Kick would answer the app token's request Forbidden, which
    // reads as a permission problem rather than "sign in first".
    'stream:info': async () => {
      await account.requireUserId();
      return channel.streamInfo();
    },
    'stream:key': async () => {
      await account.requireUserId();
      return channel.streamKey(account.view().scopes);
    },
    'stream:update': (input) => channel.updateStream(input),
    'stream:search-categories': (input) => channel.searchCategories(input.query),
    'kicks:leaderboard': (input) => channel.leaderboard(input.top),

    'health:snapshot': () => Promise.resolve(deps.health()),
    'diagnostics:save': () =>
      deps.diagnostics
        ? Promise.resolve(deps.diagnostics({ settings: settings.view(), health: deps.health() }))
        : Promise.reject(new AppError('NotConfigured', 'this Greenroom keeps no log to save')),
    'settings:get': () => Promise.resolve(settings.view()),
    'settings:update': (patch) => Promise.resolve(settings.update(patch)),
    'settings:set-credentials': (input) => settings.setCredentials(input),

    'automod:test': (input) => Promise.resolve(deps.automod.test(input.content, input.badges)),
    'overlays:info': () => Promise.resolve(deps.overlays.view()),
    'overlays:regenerate-key': () => Promise.resolve(deps.overlays.regenerateKey()),
    'overlays:test-alert': (input) => Promise.resolve(deps.overlays.testAlert(input.kind)),
    'alerts:status': () => Promise.resolve(deps.overlays.alerts.view()),
    'alerts:pause': (input) => Promise.resolve(deps.overlays.alerts.pause(input.paused)),
    'alerts:skip': (input) => Promise.resolve(deps.overlays.alerts.skip(input.id)),
    'alerts:clear': () => Promise.resolve(deps.overlays.alerts.clear()),
    'alerts:replay': (input) => Promise.resolve(deps.overlays.alerts.replay(input.feedItemId)),
    'alerts:dismiss-too-old': () => Promise.resolve(deps.overlays.alerts.dismissTooOld()),
    'overlays:add-media': (input) => Promise.resolve(deps.overlays.addMedia(input.fileName, input.base64, input.slot)),

    'obs:status': () => Promise.resolve(deps.obs.view()),
    'obs:save-connection': (input) => deps.obs.saveConnection(input),
    'obs:set-scene': async (input) => {
      await deps.obs.setScene(input.sceneName);
      return null;
    },
    'obs:set-source-visible': async (input) => {
      await deps.obs.setSourceVisible(input);
      return null;
    },
    'obs:output': async (input) => {
      await deps.obs.output(input);
      return null;
    },
    'obs:setup-for-kick': (input) => deps.obs.setupForKick(input),

    // A HistoryUnavailable or NotFound thrown here crosses as its code (the router catches AppErrors).
    'history:status': () => Promise.resolve(history.status()),
    'history:streams': () => Promise.resolve(history.streams()),
    'history:recap': (input) => Promise.resolve(history.recap(input.streamId)),
    'history:viewer': (input) => Promise.resolve(history.viewer(input.userId)),
    'history:search': (input) => Promise.resolve(history.search(input.query)),
    'history:export-recap': (input) => Promise.resolve(history.exportRecap(input.streamId, input.format)),
    'history:export-viewer': (input) => Promise.resolve(history.exportViewer(input.userId, input.format)),
  };

  const send: SendHandlers = {
    'app:open-external': async (input) => {
      // The sign-in link main itself built is allowed as it is (id.kick.com is not one of the guide's hosts).
      const signInLink = input.url === account.signInUrl();
      if (!signInLink && !isAllowedExternalUrl(input.url, deps.linkPolicy()) && !postedInChat(input.url, deps.chat)) {
        deps.log(`open-external: refused a link outside the allow-list (${new URL(input.url).origin})`);
        return;
      }
      await deps.openExternal(input.url);
    },
    'window:pop-out-chat': () => windowAction(deps, 'popOutChat'),
    'window:toggle-companion': () => windowAction(deps, 'toggleCompanion'),
  };

  return { invoke, send };
}

/**
 * A viewer's link the streamer confirmed in the panel's chat: one of the links the chat shows in a message
 * Greenroom holds (`findChatLinks`, docs/automod.md#links), so exactly those open, `https://evil。io/x` and
 * bare domains included, and a compromised page cannot use this channel to open arbitrary addresses.
 */
function postedInChat(url: string, chat: Pick<ChatHistory, 'messages'>): boolean {
  const parsed = URL.canParse(url) ? new URL(url) : null;
  if (!parsed || (parsed.protocol !== 'https:' && parsed.protocol !== 'http:')) {
    return false;
  }
  const href = parsed.href;
  return chat.messages().some((message) => findChatLinks(message.content).some((link) => link.url === href));
}

function windowAction(deps: HandlerDeps, action: keyof ShellPort): void {
  if (!deps.shell) {
    deps.log(`window: ${action} is not available without the desktop window`);
    return;
  }
  deps.shell[action]();
}
