/**
 * Commands, timers and event replies (docs/chat-bot.md). Fed live chat (after auto-moderation) and every
 * Kick event, the journal's at start-up too (`live` false: nothing is sent); what it posts goes through the
 * one outgoing queue (`chat-queue.ts`). `tick` is called every few seconds for the timers. Whether the stream
 * is live, its title and category come from main's one live status (`stream`), never from the bot's own
 * reading of events ([live status](../../docs/chat-bot.md#live-status-comes-from-kick)).
 */
import { okResult } from '../../shared/errors';
import type { ChatBotSettings, ChatCommand, PermissionLevel, ReplyEvent } from '../../shared/chat-bot';
import { PERMISSION_LEVELS, REPLY_EVENTS } from '../../shared/chat-bot';
import { COMMAND_VIEWER_FIELDS, EVENT_VIEWER_FIELDS, streamerMaySend } from '../../shared/chat-bot-reply-safety';
import { fillTemplate } from '../../shared/overlays';
import { isKickUsername } from '../../shared/kick/username';
import type { ChatMessageView } from '../../shared/views';
import { type AlertSource, alertSourceOf } from '../services/alert-source';
import type { KickEvent } from '../webhooks/events/types';
import type { OutgoingMessage } from './chat-queue';
import { type BotHistory, followageWords, STREAMS_UNAVAILABLE, streamsWords } from './history-variables';
import { WelcomeBackReplies } from './welcome-back';
import type { SetTimer } from '../core/scheduler';

/** The stream as main knows it (electron/app/live-state.ts). */
export interface BotStream {
  /** Live, and confirmed by Kick or one of its live events since the last sign-in: only then do timers post. */
  live: boolean;
  startedAtMs: number | null;
  title: string;
  category: string;
}

export interface ChatBotDeps {
  settings: () => ChatBotSettings;
  stream: () => BotStream;
  enqueue: (message: OutgoingMessage) => void;
  now: () => number;
  /** Schedules the flush of a combined event reply. */
  setTimer: SetTimer;
  /** Whether a message is the bot's own: its account, or the echo of what it sent (own-messages.ts). */
  isOwn: (message: ChatMessageView) => boolean;
  /** The channel's other bots by name (the overlays' bot list); they are never answered. */
  botNames: () => readonly string[];
  log: (line: string) => void;
  /** The stream history, for `{followage}`, `{streams}` and "welcome back"; absent, they say it is unknown. */
  history?: BotHistory;
}

interface Pending {
  users: string[];
  count: number;
  amount: number;
  /** Raids: the raiders, all raids combined. */
  viewers: number;
  months: string;
  reward: string;
  firstAtMs: number;
  timer: { cancel(): void };
}

/** The longest a combined reply waits for more events before it is sent anyway. */
const MAX_COMBINE_MS = 60_000;
/** Chat messages remembered as answered, so a redelivered one is never answered twice. */
const MAX_ANSWERED = 1000;
/** Kick's times of chat heard before the bot saw the stream live: as many as a timer can ask for. */
const MAX_EARLY_CHAT = 10_000;

export class ChatBot {
  readonly #deps: ChatBotDeps;
  readonly #lastUsed = new Map<string, number>();
  readonly #lastUsedBy = new Map<string, number>();
  readonly #uses = new Map<string, number>();
  readonly #answered = new Set<string>();
  /** By event kind; redemptions by kind and reward, so two rewards are never thanked in one message. */
  readonly #pending = new Map<string, Pending>();
  /** Per timer (by index): when it last posted, and chat messages since. */
  #timers: { lastMs: number; messages: number }[] = [];
  /** Live at the last tick: going live starts the timers afresh. */
  #wasLive = false;
  /**
   * Kick's times (`sentAtMs`) of the chat heard while the bot did not see the stream live yet. Kick's live
   * socket brings chat before the live-status webhook, so a line typed after the stream started can come
   * first; going live counts these by the stream's own start ([timers](../../docs/chat-bot.md#timers-count-chat-from-the-streams-start)).
   */
  #earlyChat: number[] = [];
  /** A raider's name that is no Kick username has been logged: one line a run is enough. */
  #oddRaiderLogged = false;
  readonly #welcomeBack: WelcomeBackReplies;

  constructor(deps: ChatBotDeps) {
    this.#deps = deps;
    this.#welcomeBack = new WelcomeBackReplies(deps.history, deps.now);
  }

  /** A Kick event: when live (not the journal's), maybe an event reply. */
  onEvent(event: KickEvent, live: boolean): void {
    if (live) {
      this.#reply(alertSourceOf(event));
    }
  }

  /**
   * An incoming raid from Kick's live socket (once per raid, electron/app/app-raids.ts): maybe a welcome. The
   * socket is unsigned and the raider's name is written into chat as the bot, so only a name that can be a Kick
   * account's is welcomed ([raid welcome](../../docs/chat-bot.md#the-raid-welcome-names-only-a-kick-account));
   * another is still in the feed and the alert, and logged once.
   */
  onRaid(source: AlertSource): void {
    if (!isKickUsername(source.fields.user ?? '')) {
      if (!this.#oddRaiderLogged) {
        this.#oddRaiderLogged = true;
        this.#deps.log(
          `chat bot: a raider's name is not a Kick username, so the raid was not welcomed: ${JSON.stringify(source.fields.user ?? '')} (later ones are not logged)`,
        );
      }
      return;
    }
    this.#reply(source);
  }

  /**
   * A live chat message auto-moderation let through: counts for timers, and may be a command. Only its first
   * word is read, so one message gets at most one reply (../../docs/chat-bot.md#who-the-bot-never-answers); the
   * bot's own messages and the channel's other bots are neither.
   */
  onChat(message: ChatMessageView): void {
    if (this.#fromABot(message)) {
      return;
    }
    if (!this.#followStream()) {
      this.#earlyChat.push(message.sentAtMs);
      if (this.#earlyChat.length > MAX_EARLY_CHAT) {
        this.#earlyChat.shift();
      }
    }
    for (const timer of this.#timerStates()) {
      timer.messages += 1;
    }
    // One line, one reply: a line that was a command is not welcomed back too.
    if (!this.#command(message)) {
      this.#welcome(message);
    }
  }

  /** A "welcome back" for a chatter's first line of the stream, after N days away (welcome-back.ts). */
  #welcome(message: ChatMessageView): void {
    const settings = this.#deps.settings();
    if (settings.paused) {
      return;
    }
    const welcome = settings.welcomeBack;
    const content = this.#welcomeBack.reply(welcome, message, this.#deps.stream(), levelOf(message) === 'broadcaster');
    if (content !== null) {
      this.#send(content, settings.sendRepliesAs, welcome.template, EVENT_VIEWER_FIELDS, 'the welcome back reply');
    }
  }

  /** Answers the command the line starts with, if any: true when it did. */
  #command(message: ChatMessageView): boolean {
    const found = /^!([a-z0-9_]{1,25})(?:\s+(.*))?$/is.exec(message.content.trim());
    if (!found || this.#answered.has(message.messageId)) {
      return false;
    }
    const name = found[1]!.toLowerCase();
    const settings = this.#deps.settings();
    const command = settings.commands.find((c) => c.enabled && (c.name === name || c.aliases.includes(name)));
    if (!command || settings.paused || !permitted(message, command.permission)) {
      return false;
    }
    const now = this.#deps.now();
    const userKey = `${command.name}:${message.sender.userId ?? message.sender.username}`;
    if (
      now - (this.#lastUsed.get(command.name) ?? Number.NEGATIVE_INFINITY) < command.cooldownSec * 1000 ||
      now - (this.#lastUsedBy.get(userKey) ?? Number.NEGATIVE_INFINITY) < command.userCooldownSec * 1000
    ) {
      return false;
    }
    this.#lastUsed.set(command.name, now);
    this.#lastUsedBy.set(userKey, now);
    const count = (this.#uses.get(command.name) ?? 0) + 1;
    this.#uses.set(command.name, count);
    this.#answered.add(message.messageId);
    if (this.#answered.size > MAX_ANSWERED) {
      this.#answered.delete(this.#answered.values().next().value!);
    }
    const content = this.#fill(command, message, found[2] ?? '', count);
    this.#send(content, command.sendAs, command.reply, COMMAND_VIEWER_FIELDS, `the reply to !${command.name}`);
    return true;
  }

  /** The bot's own account or echo, an account with Kick's bot badge, or a name on the channel's bot list. */
  #fromABot(message: ChatMessageView): boolean {
    if (this.#deps.isOwn(message) || message.sender.badges.some((badge) => badge.type === 'bot')) {
      return true;
    }
    const name = message.sender.username.toLowerCase();
    return this.#deps.botNames().some((bot) => bot.toLowerCase() === name);
  }

  /**
   * Queues a reply. One meant to go out as the streamer whose template a viewer would start, or which would
   * start with a `!` or `/` the streamer did not write, goes out as the bot instead
   * (../../docs/chat-bot.md#replies-sent-as-you): the settings file may hold a template Save would refuse.
   */
  #send(content: string, as: 'bot' | 'user', template: string, viewerFields: readonly string[], what: string): void {
    const check = as === 'user' ? streamerMaySend(template, content, viewerFields) : okResult(null);
    if (!check.ok) {
      this.#deps.log(`chat bot: ${what} was sent as the bot, not as you: ${check.error}`);
    }
    this.#deps.enqueue({ content, as: check.ok ? as : 'bot', manual: false });
  }

  /** Posts each timer that is due: live, its interval passed, and enough chat since it last posted. */
  tick(): void {
    const settings = this.#deps.settings();
    if (!this.#followStream() || settings.paused) {
      return;
    }
    const now = this.#deps.now();
    settings.timers.forEach((timer, i) => {
      const state = this.#timerStates()[i]!;
      if (timer.enabled && now - state.lastMs >= timer.everySec * 1000 && state.messages >= timer.minMessages) {
        state.lastMs = now;
        state.messages = 0;
        this.#deps.enqueue({ content: timer.message, as: 'bot', manual: false });
      }
    });
  }

  /**
   * Whether the stream is live; going live starts the timers afresh (Greenroom's start counts too), counting
   * the chat already heard that Kick timed from the stream's start on. Kick gives both times to the second, so
   * a line of the start's own second counts.
   */
  #followStream(): boolean {
    const stream = this.#deps.stream();
    if (stream.live && !this.#wasLive) {
      const startedSec = stream.startedAtMs === null ? null : Math.floor(stream.startedAtMs / 1000);
      const since =
        startedSec === null ? 0 : this.#earlyChat.filter((atMs) => Math.floor(atMs / 1000) >= startedSec).length;
      this.#timers = [];
      for (const timer of this.#timerStates()) {
        timer.messages = since;
      }
    }
    if (stream.live) {
      this.#earlyChat = [];
    }
    this.#wasLive = stream.live;
    return stream.live;
  }

  stop(): void {
    for (const pending of this.#pending.values()) {
      pending.timer.cancel();
    }
    this.#pending.clear();
  }

  #timerStates(): { lastMs: number; messages: number }[] {
    const count = this.#deps.settings().timers.length;
    while (this.#timers.length < count) {
      // A timer starts counting when the stream (or Greenroom) starts: its first post is a full interval in.
      this.#timers.push({ lastMs: this.#deps.now(), messages: 0 });
    }
    return this.#timers;
  }

  /**
   * The reply's fields, filled in one pass over the template: a value (the viewer's `{args}`, their name) is never
   * read again for fields, so `{followage}` typed by a viewer stays as typed.
   */
  #fill(command: ChatCommand, message: ChatMessageView, args: string, count: number): string {
    const stream = this.#deps.stream();
    return fillTemplate(command.reply, {
      user: message.sender.username,
      args: args.trim(),
      title: stream.title,
      category: stream.category,
      uptime: this.#uptime(),
      count: String(count),
      ...this.#historyFields(command.reply, message),
    }).slice(0, 500);
  }

  /** `{followage}` and `{streams}` of the asker, read from the history only when the template uses them. */
  #historyFields(template: string, message: ChatMessageView): { followage?: string; streams?: string } {
    if (!/\{(followage|streams)\}/.test(template)) {
      return {};
    }
    const userId = message.sender.userId;
    const recall =
      this.#deps.history === undefined
        ? null
        : userId === null
          ? undefined
          : this.#deps.history.recall(userId, message.sentAtMs);
    if (recall === undefined) {
      // No account id on the line: the history cannot be asked about this chatter.
      return { followage: 'follow time unknown', streams: STREAMS_UNAVAILABLE };
    }
    return { followage: followageWords(recall, this.#deps.now()), streams: streamsWords(recall) };
  }

  #uptime(): string {
    const stream = this.#deps.stream();
    if (!stream.live || stream.startedAtMs === null) {
      return 'offline';
    }
    const minutes = Math.max(0, Math.floor((this.#deps.now() - stream.startedAtMs) / 60_000));
    return minutes >= 60 ? `${Math.floor(minutes / 60)}h ${minutes % 60}m` : `${minutes}m`;
  }

  #reply(source: AlertSource | null): void {
    if (!source || !(REPLY_EVENTS as readonly string[]).includes(source.kind)) {
      return;
    }
    const kind = source.kind as ReplyEvent;
    const settings = this.#deps.settings();
    const reply = settings.replies[kind];
    const amount = kind === 'gifted-subs' || kind === 'kicks' ? source.amount : 1;
    const reward = source.fields.reward ?? '';
    if (settings.paused || !reply.enabled || amount < reply.minAmount || !rewardWanted(reply.rewards, kind, reward)) {
      return;
    }
    const key = kind === 'redemption' ? `${kind}:${reward.toLowerCase()}` : kind;
    const pending = this.#pending.get(key);
    const user = source.fields.user ?? 'Anonymous';
    if (pending) {
      if (!pending.users.includes(user)) {
        pending.users.push(user);
      }
      pending.count += Number(source.fields.count ?? 1);
      pending.amount += Number(source.fields.amount ?? 0);
      pending.viewers += Number(source.fields.viewers ?? 0);
      pending.timer.cancel();
      const wait = Math.min(reply.combineSec * 1000, pending.firstAtMs + MAX_COMBINE_MS - this.#deps.now());
      pending.timer = this.#deps.setTimer(() => this.#flush(kind, key), Math.max(0, wait));
      return;
    }
    this.#pending.set(key, {
      users: [user],
      count: Number(source.fields.count ?? 1),
      amount: Number(source.fields.amount ?? 0),
      viewers: Number(source.fields.viewers ?? 0),
      months: source.fields.months ?? '',
      reward,
      firstAtMs: this.#deps.now(),
      timer: this.#deps.setTimer(() => this.#flush(kind, key), reply.combineSec * 1000),
    });
  }

  #flush(kind: ReplyEvent, key: string): void {
    const pending = this.#pending.get(key);
    this.#pending.delete(key);
    const settings = this.#deps.settings();
    if (!pending || settings.paused) {
      return;
    }
    const content = fillTemplate(settings.replies[kind].template, {
      user: listOf(pending.users),
      count: String(pending.count),
      amount: String(pending.amount),
      months: pending.months,
      reward: pending.reward,
      viewers: String(pending.viewers),
    });
    const template = settings.replies[kind].template;
    this.#send(content.slice(0, 500), settings.sendRepliesAs, template, EVENT_VIEWER_FIELDS, `the ${kind} reply`);
  }
}

/** A redemption reply limited to some rewards answers only those (by title, any case); other kinds always. */
function rewardWanted(rewards: readonly string[], kind: ReplyEvent, reward: string): boolean {
  return kind !== 'redemption' || rewards.length === 0 || rewards.some((r) => r.toLowerCase() === reward.toLowerCase());
}

/** "a", "a and b", "a, b and 3 others". */
function listOf(names: readonly string[]): string {
  if (names.length <= 1) {
    return names[0] ?? '';
  }
  if (names.length <= 3) {
    return `${names.slice(0, -1).join(', ')} and ${names.at(-1)}`;
  }
  return `${names.slice(0, 2).join(', ')} and ${names.length - 2} others`;
}

/** The chatter's level from their badges; each level includes the ones below it. */
export function levelOf(message: Pick<ChatMessageView, 'sender'>): PermissionLevel {
  const types = new Set(message.sender.badges.map((badge) => badge.type));
  if (types.has('broadcaster')) {
    return 'broadcaster';
  }
  if (types.has('moderator')) {
    return 'moderator';
  }
  if (types.has('vip')) {
    return 'vip';
  }
  if (types.has('subscriber') || types.has('founder') || types.has('og')) {
    return 'subscriber';
  }
  return 'everyone';
}

function permitted(message: ChatMessageView, needed: PermissionLevel): boolean {
  return PERMISSION_LEVELS.indexOf(levelOf(message)) >= PERMISSION_LEVELS.indexOf(needed);
}
