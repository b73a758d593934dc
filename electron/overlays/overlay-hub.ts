/**
 * The overlays' side of main: the open overlay sockets by kind, what each receives, and the alert queue,
 * goal tally and chat filter behind them (docs/overlays.md). The panel server hands it each accepted
 * overlay socket; create-app feeds it every Kick event (the journal's at start-up, then live ones) and the
 * app's events. An overlay socket only ever receives; the one frame it may send is `alert-done`, and
 * anything else closes it (`OVERLAY_CLOSE_POLICY`).
 */
import type { AppEvents } from '../core/app-events';
import type { ChatMessageView, FeedItem } from '../../shared/views';
import {
  type AlertKind,
  type OverlayFrame,
  type OverlayKind,
  type OverlaySettings,
  parseOverlayClientFrame,
} from '../../shared/overlays';
import type { Clock } from '../core/clock';
import type { KickEvent } from '../webhooks/events/types';
import { AlertQueue, type AlertProgressStore } from './alert-queue';
import { type AlertSource, alertSourceOf } from '../services/alert-source';
import { RecentAlerts } from './recent-alerts';
import { GoalTally } from './goal-tally';

/** What the hub needs of a WebSocket (ws's satisfies it; tests pass their own). */
export interface OverlaySocket {
  send(text: string): void;
  close(code: number, reason: string): void;
  on(event: 'message', listener: (data: unknown, isBinary: boolean) => void): unknown;
  on(event: 'close', listener: () => void): unknown;
}

/** Close code for a frame an overlay may not send (1008, policy violation). */
export const OVERLAY_CLOSE_POLICY = 1008;
export { OVERLAY_CLOSE_KEY_CHANGED } from '../../shared/overlay-paths';

export interface OverlayHubDeps {
  clock: Clock;
  settings: () => OverlaySettings;
  emoteHost: () => string;
  mediaUrl: (name: string) => string;
  progress: AlertProgressStore;
  /** Chat as main keeps it, oldest first (for a chat box that opens mid-stream). */
  chatMessages: () => ChatMessageView[];
  /** The activity feed, oldest first. */
  feedItems: () => FeedItem[];
  log: (line: string) => void;
  /** What the panel shows of the alert queue changed (docs/overlays.md#controlling-the-alert-queue). */
  onAlertsChanged?: () => void;
}

/** Banned or timed-out viewers the chat box remembers, the most recently banned kept (more than a scrollback's chatters). */
const REMOVED_USERS_MAX = 5_000;

const EVENT_LIST_KINDS = new Set(['follow', 'subscription', 'renewal', 'gifted-subs', 'kicks', 'redemption']);

export class OverlayHub {
  readonly #options: OverlayHubDeps;
  readonly #sockets = new Map<OverlaySocket, OverlayKind>();
  /**
   * Each alert overlay's alert: the id it was sent and has not yet reported done. The current alert ends when
   * every overlay that was showing it has reported it (or closed), so an overlay can only end its own
   * showing: a second page opened with the key cannot skip alerts on the streamer’s OBS (../../docs/overlays.md#alerts).
   */
  readonly #showing = new Map<OverlaySocket, string>();
  /** The alert at least one overlay reported done, waiting for the others. */
  #reported: string | null = null;
  /**
   * Viewers banned or timed out, with when the hub heard of it: their lines sent before then stay off every chat box,
   * one opened or sent its chat afresh later included (a settings change sends it again), not only those open at the
   * ban (docs/overlays.md#chat-box-goal-bar-recent-events). Kick's send time against the app's clock: a timeout lasts
   * a minute at least, more than the two drift.
   */
  readonly #removedUsers = new Map<number, number>();
  readonly #goal = new GoalTally();
  readonly #recent = new RecentAlerts();
  readonly alerts: AlertQueue;

  constructor(options: OverlayHubDeps) {
    this.#options = options;
    this.alerts = new AlertQueue({
      clock: options.clock,
      templates: () => options.settings().alerts,
      maxAgeMs: () => options.settings().queue.maxAgeSec * 1000,
      mediaUrl: options.mediaUrl,
      progress: options.progress,
      onShow: (alert) => {
        this.#reported = null;
        for (const [socket, kind] of this.#sockets) {
          if (kind === 'alerts') {
            this.#showing.set(socket, alert.id);
          }
        }
        this.#broadcast('alerts', { type: 'alert', alert });
      },
      onEnd: (id) => this.#endShowing(id),
      onChange: () => options.onAlertsChanged?.(),
      log: options.log,
    });
  }

  /**
   * One Kick event: `live` false while the journal is replayed at start-up. A late one (`lateByMs`: how late
   * the late gate found it; null, on time) counts for the goal, is listed with the alerts too old to play and
   * can be replayed from the feed, but never plays by itself ([late events](../../docs/design-notes.md#late-events)).
   */
  ingest(event: KickEvent, live: boolean, lateByMs: number | null = null): void {
    const source = alertSourceOf(event);
    if (source) {
      this.#recent.note(source);
      if (lateByMs !== null) {
        // Listed, never played: live, as the panel's too-old alerts, with the gate's lateness (a follow's own
        // time is only Kick's send time); in a restart's replay, not at all.
        if (live) {
          this.alerts.late(source, lateByMs);
        }
      } else if (live) {
        this.alerts.offer(source);
      } else {
        this.alerts.replay(source);
      }
    }
    if (this.#goal.add(event) && live) {
      this.#sendGoal();
    }
  }

  /**
   * An incoming raid from Kick's live socket, once per raid (electron/app/app-raids.ts): no webhook carries
   * one, so it never comes through `ingest` (docs/overlays.md#raids). `live` and `lateByMs` as for `ingest`:
   * the journal's raids are replayed at start like its events, and a late one is never played.
   */
  offerRaid(source: AlertSource, live = true, lateByMs: number | null = null): void {
    this.#recent.note(source);
    if (lateByMs !== null) {
      if (live) {
        this.alerts.late(source, lateByMs);
      }
    } else if (live) {
      this.alerts.offer(source);
    } else {
      this.alerts.replay(source);
    }
  }

  /** The journal replay is over: alerts not yet shown start playing. */
  endReplay(): void {
    this.alerts.endReplay();
  }

  /** A test alert from the panel. */
  testAlert(kind: AlertKind): void {
    this.alerts.test(kind);
  }

  /** "Replay alert" on a feed entry: false when the entry raised no alert, or is older than what is kept. */
  replayAlert(feedItemId: string): boolean {
    const source = this.#recent.get(feedItemId);
    if (source) {
      this.alerts.playAgain(source);
    }
    return source !== null;
  }

  /** Follows the app's events: chat lines, removals, the event list and settings. */
  follow(events: AppEvents): () => void {
    const offs = [
      events.on('kick:event', (event) => {
        if (event.kind === 'chat') {
          if (!event.message.deleted && this.#shows(event.message)) {
            this.#broadcast('chat', { type: 'chat', messages: [event.message] });
          }
          return;
        }
        if (event.item.kind === 'ban' && event.item.userId !== null) {
          this.#removeUser(event.item.userId);
        }
        if (EVENT_LIST_KINDS.has(event.item.kind)) {
          this.#sendEvents();
        }
      }),
      events.on('chat:deleted', ({ messageId }) =>
        this.#broadcast('chat', { type: 'chat-remove', messageIds: [messageId] }),
      ),
      // Kick's signed words for a line the live socket told otherwise: the old line goes, the signed one comes.
      events.on('chat:replaced', ({ message }) => {
        this.#broadcast('chat', { type: 'chat-remove', messageIds: [message.messageId] });
        if (!message.deleted && this.#shows(message)) {
          this.#broadcast('chat', { type: 'chat', messages: [message] });
        }
      }),
      events.on('mod:action', (action) => {
        if (action.ok && (action.kind === 'ban' || action.kind === 'timeout') && action.targetUserId !== null) {
          this.#removeUser(action.targetUserId);
        }
      }),
      events.on('settings:changed', () => {
        for (const [socket, kind] of this.#sockets) {
          this.#sendInitial(socket, kind, false);
        }
        // A new age limit or template switch applies to the alerts already waiting.
        this.alerts.recheck();
      }),
    ];
    return () => offs.forEach((off) => off());
  }

  /** An accepted overlay socket (its key already checked by the server). */
  attach(socket: OverlaySocket, kind: OverlayKind): void {
    this.#sockets.set(socket, kind);
    socket.on('message', (data, isBinary) => {
      const frame = isBinary ? null : parseOverlayClientFrame(String(data));
      if (frame === null || kind !== 'alerts') {
        this.#options.log(`overlays: a ${kind} overlay sent a frame it may not send; closing it`);
        socket.close(OVERLAY_CLOSE_POLICY, 'overlays only receive');
        return;
      }
      this.#alertDone(socket, frame.id);
    });
    socket.on('close', () => {
      this.#sockets.delete(socket);
      this.#showing.delete(socket);
      // The audience first: with no alert overlay left, the next alert waits rather than plays to nobody.
      this.#updateAudience();
      this.#finishIfAllDone();
    });
    this.#sendInitial(socket, kind, true);
    this.#updateAudience();
  }

  /** Open overlays by kind. */
  counts(): Record<OverlayKind, number> {
    const counts = { alerts: 0, chat: 0, goal: 0, events: 0 };
    for (const kind of this.#sockets.values()) {
      counts[kind] += 1;
    }
    return counts;
  }

  /** Closes every overlay (the key changed, or the app stops). */
  closeAll(code: number, reason: string): void {
    for (const socket of [...this.#sockets.keys()]) {
      socket.close(code, reason);
    }
    this.#sockets.clear();
    this.#updateAudience();
  }

  stop(): void {
    this.alerts.stop();
  }

  /** An overlay's `alert-done`: counts only for the alert it is showing, once; anything else is ignored. */
  #alertDone(socket: OverlaySocket, id: string): void {
    if (this.#showing.get(socket) !== id) {
      return;
    }
    this.#showing.delete(socket);
    this.#reported = id;
    this.#finishIfAllDone();
  }

  /** The queue ended `id` (skipped, cleared): every overlay takes it down, and no done is awaited for it. */
  #endShowing(id: string): void {
    for (const [socket, showing] of this.#showing) {
      if (showing === id) {
        this.#showing.delete(socket);
      }
    }
    if (this.#reported === id) {
      this.#reported = null;
    }
    this.#broadcast('alerts', { type: 'alert-end', id });
  }

  /** Ends the reported alert once no overlay is still showing it. */
  #finishIfAllDone(): void {
    const id = this.#reported;
    if (id === null || [...this.#showing.values()].includes(id)) {
      return;
    }
    this.#reported = null;
    this.alerts.done(id);
  }

  /**
   * What an overlay shows from the start; `opening` false when settings changed. The alert playing now goes
   * only to an overlay that opens: sent again, it would play again on a box that already finished it.
   */
  #sendInitial(socket: OverlaySocket, kind: OverlayKind, opening: boolean): void {
    const settings = this.#options.settings();
    send(socket, {
      type: 'config',
      kind,
      style: settings.style[kind],
      emoteHost: this.#options.emoteHost(),
      chat: settings.chat,
    });
    if (kind === 'alerts') {
      const current = opening ? this.alerts.current() : null;
      if (current) {
        this.#showing.set(socket, current.id);
        send(socket, { type: 'alert', alert: current });
      }
    } else if (kind === 'chat') {
      const messages = this.#options
        .chatMessages()
        .filter((message) => !message.deleted && !this.#removed(message) && this.#shows(message))
        .slice(-settings.chat.maxLines);
      send(socket, { type: 'chat', messages });
    } else if (kind === 'goal') {
      send(socket, { type: 'goal', goal: this.#goal.view(settings.goal) });
    } else {
      send(socket, { type: 'events', items: this.#eventList(settings) });
    }
  }

  #shows(message: ChatMessageView): boolean {
    const chat = this.#options.settings().chat;
    if (chat.hideCommands && message.content.trimStart().startsWith('!')) {
      return false;
    }
    const name = message.sender.username.toLowerCase();
    return !(chat.hideBots && chat.botNames.some((bot) => bot.toLowerCase() === name));
  }

  #removeUser(userId: number): void {
    this.#removedUsers.delete(userId); // the newest ban last, so the bound lets go of the oldest
    this.#removedUsers.set(userId, this.#options.clock.now());
    if (this.#removedUsers.size > REMOVED_USERS_MAX) {
      this.#removedUsers.delete(this.#removedUsers.keys().next().value!);
    }
    // With no chat overlay open there is nobody to tell, and the scan of the whole scrollback ran for every ban.
    if (!this.#open('chat')) {
      return;
    }
    const messageIds = this.#options
      .chatMessages()
      .filter((message) => message.sender.userId === userId)
      .map((message) => message.messageId);
    if (messageIds.length > 0) {
      this.#broadcast('chat', { type: 'chat-remove', messageIds });
    }
  }

  /** Whether `message` was sent before its sender was banned or timed out. */
  #removed(message: ChatMessageView): boolean {
    const userId = message.sender.userId;
    const at = userId === null ? undefined : this.#removedUsers.get(userId);
    return at !== undefined && message.sentAtMs <= at;
  }

  /** Whether an overlay of `kind` is open. */
  #open(kind: OverlayKind): boolean {
    for (const open of this.#sockets.values()) {
      if (open === kind) {
        return true;
      }
    }
    return false;
  }

  #eventList(settings: OverlaySettings): FeedItem[] {
    return this.#options
      .feedItems()
      .filter((item) => EVENT_LIST_KINDS.has(item.kind))
      .slice(-settings.events.count)
      .reverse();
  }

  #sendGoal(): void {
    this.#broadcast('goal', { type: 'goal', goal: this.#goal.view(this.#options.settings().goal) });
  }

  #sendEvents(): void {
    this.#broadcast('events', { type: 'events', items: this.#eventList(this.#options.settings()) });
  }

  #broadcast(kind: OverlayKind, frame: OverlayFrame): void {
    let text: string | null = null;
    for (const [socket, socketKind] of this.#sockets) {
      if (socketKind === kind) {
        text ??= JSON.stringify(frame);
        socket.send(text);
      }
    }
  }

  #updateAudience(): void {
    this.alerts.setAudience(this.counts().alerts);
  }
}

function send(socket: OverlaySocket, frame: OverlayFrame): void {
  socket.send(JSON.stringify(frame));
}
