/**
 * What Greenroom posts in chat by itself (docs/chat-bot.md): commands, timers and event replies, their
 * settings (schema-validated in the settings file) and the template fields they may use. Platform-free.
 */
import { z } from 'zod';
import { COMMAND_VIEWER_FIELDS, EVENT_VIEWER_FIELDS, leadingViewerField } from './chat-bot-reply-safety';

/** Who may use a command, from the badges Kick sends with the message; each level includes those above. */
export const PERMISSION_LEVELS = ['everyone', 'subscriber', 'vip', 'moderator', 'broadcaster'] as const;
export type PermissionLevel = (typeof PERMISSION_LEVELS)[number];

/** The events a reply can thank, one template each. */
export const REPLY_EVENTS = [
  'follow',
  'subscription',
  'renewal',
  'gifted-subs',
  'kicks',
  'redemption',
  'raid',
] as const;
export type ReplyEvent = (typeof REPLY_EVENTS)[number];

const name = z
  .string()
  .regex(/^[a-z0-9_]{1,25}$/i, 'must be 1–25 letters, digits or _ (without the !)')
  .transform((value) => value.toLowerCase());

export const commandSchema = z.object({
  name,
  aliases: z.array(name).max(10).default([]),
  /**
   * The reply: `{user}`, `{args}`, `{title}`, `{category}`, `{uptime}`, `{count}`, and from the stream history
   * `{followage}` and `{streams}` (../docs/chat-bot.md#chat-variables-from-the-history) are filled in.
   */
  reply: z.string().min(1).max(500),
  permission: z.enum(PERMISSION_LEVELS).default('everyone'),
  /** Seconds before the command answers anyone again. */
  cooldownSec: z.int().min(0).max(3600).default(30),
  /** Seconds before it answers the same chatter again. */
  userCooldownSec: z.int().min(0).max(3600).default(0),
  sendAs: z.enum(['bot', 'user']).default('bot'),
  enabled: z.boolean().default(true),
});
export type ChatCommand = z.infer<typeof commandSchema>;

export const timerSchema = z.object({
  message: z.string().min(1).max(500),
  /** Seconds between posts: at least 30, 15 minutes unless set. */
  everySec: z.int().min(30).max(14_400).default(900),
  /** Chat messages that must have passed since the timer last posted. */
  minMessages: z.int().min(0).max(10_000).default(10),
  enabled: z.boolean().default(true),
});
export type ChatTimer = z.infer<typeof timerSchema>;

export const eventReplySchema = z.object({
  enabled: z.boolean().default(false),
  /** `{user}` (or the names, for a train), `{count}`, `{amount}`, `{months}`, `{reward}`. */
  template: z.string().min(1).max(500),
  /** Gifted subs: at least this many; KICKs: at least this amount. */
  minAmount: z.int().min(0).max(1_000_000).default(0),
  /** Events within this many seconds of each other are thanked together, in one message. */
  combineSec: z.int().min(0).max(600).default(10),
  /** Redemptions: only these rewards, by title (any case); empty answers every reward. */
  rewards: z.array(z.string().trim().min(1).max(50)).max(15).default([]),
});
export type EventReply = z.infer<typeof eventReplySchema>;

const DEFAULT_TEMPLATES: Record<ReplyEvent, string> = {
  follow: 'Thanks for the follow, {user}!',
  subscription: 'Welcome to the sub club, {user}!',
  // Words first: a reply sent as the streamer may not start with a viewer's name (../docs/chat-bot.md#replies-sent-as-you).
  renewal: 'Thank you {user} for resubscribing for {months} months!',
  'gifted-subs': 'Thank you {user} for the {count} gifted subs!',
  kicks: 'Thanks for the {amount} KICKs, {user}!',
  redemption: 'Redeemed: {reward} by {user}',
  raid: 'Welcome raiders from {user}!',
};

/**
 * What `{followage}` and `{streams}` say in chat where the stream history does not run (a Node without
 * `node:sqlite`): plain words, never a made-up 0 (../docs/chat-bot.md#chat-variables-from-the-history).
 */
export const FOLLOWAGE_UNAVAILABLE = 'follow time unknown (Greenroom keeps no stream history here)';
export const STREAMS_UNAVAILABLE = 'an unknown number of';

/** "Welcome back" greets a chatter who was away at least this many days: 1 to 365. */
export const WELCOME_BACK_DAYS_MIN = 1;
export const WELCOME_BACK_DAYS_MAX = 365;
const WELCOME_BACK_LIMIT = `Welcome back after ${WELCOME_BACK_DAYS_MIN} to ${WELCOME_BACK_DAYS_MAX} days away`;

/**
 * The "welcome back" reply (../docs/chat-bot.md#welcome-back): a chatter's first line in a stream, when the history
 * last saw them at least `afterDays` ago. Off unless turned on; once per viewer per stream.
 */
export const welcomeBackSchema = z.object({
  enabled: z.boolean().default(false),
  afterDays: z
    .int(WELCOME_BACK_LIMIT)
    .min(WELCOME_BACK_DAYS_MIN, WELCOME_BACK_LIMIT)
    .max(WELCOME_BACK_DAYS_MAX, WELCOME_BACK_LIMIT)
    .default(30),
  /** `{user}`, `{days}` (days away), `{followage}`, `{streams}`. */
  template: z.string().min(1).max(500).default('Welcome back, {user}!'),
});
export type WelcomeBack = z.infer<typeof welcomeBackSchema>;

const reply = (kind: ReplyEvent) =>
  eventReplySchema.extend({ template: eventReplySchema.shape.template.default(DEFAULT_TEMPLATES[kind]) }).prefault({});

export const chatBotSettingsSchema = z.object({
  /** The header switch: nothing automatic is sent while paused. */
  paused: z.boolean().default(false),
  commands: z
    .array(commandSchema)
    .max(200)
    .default([])
    .refine(
      (commands) =>
        new Set(commands.flatMap((c) => [c.name, ...c.aliases])).size ===
        commands.flatMap((c) => [c.name, ...c.aliases]).length,
      'a command name or alias is used twice',
    ),
  timers: z.array(timerSchema).max(50).default([]),
  replies: z
    .object(
      Object.fromEntries(REPLY_EVENTS.map((kind) => [kind, reply(kind)])) as Record<
        ReplyEvent,
        ReturnType<typeof reply>
      >,
    )
    .prefault({}),
  welcomeBack: welcomeBackSchema.prefault({}),
  sendRepliesAs: z.enum(['bot', 'user']).default('bot'),
});
export type ChatBotSettings = z.infer<typeof chatBotSettingsSchema>;

export const DEFAULT_CHAT_BOT_SETTINGS: ChatBotSettings = chatBotSettingsSchema.parse({});

/** Each event reply as the Automation tab names it. */
const REPLY_NAMES: Record<ReplyEvent, string> = {
  follow: 'follow',
  subscription: 'new sub',
  renewal: 'resub',
  'gifted-subs': 'gifted subs',
  kicks: 'KICKs',
  redemption: 'redemption',
  raid: 'raid',
};

/** What a viewer would choose the start of, said to the streamer at the field. */
const leadsWith = (what: string, field: string): string =>
  `${what} goes out as you, so it must start with words you wrote, not {${field}}: a viewer would choose how ` +
  'your message begins. Put your own words first, or send it as the bot';

/**
 * The settings as a panel may save them (the import included): a command or event reply sent as the streamer
 * may not start with a field a viewer controls, refused at Save with the reason at the field
 * (../docs/chat-bot.md#replies-sent-as-you). The settings file is read with the plain schema, so a file from
 * before this check keeps every command; the bot sends such a reply as the bot instead.
 */
export const chatBotSaveSchema = chatBotSettingsSchema.superRefine((settings, ctx) => {
  settings.commands.forEach((command, i) => {
    const field =
      command.enabled && command.sendAs === 'user' && leadingViewerField(command.reply, COMMAND_VIEWER_FIELDS);
    if (field) {
      ctx.addIssue({
        code: 'custom',
        path: ['commands', i, 'reply'],
        message: leadsWith(`The reply to !${command.name}`, field),
      });
    }
  });
  if (settings.sendRepliesAs !== 'user') {
    return;
  }
  const welcome = settings.welcomeBack;
  const welcomeField = welcome.enabled && leadingViewerField(welcome.template, EVENT_VIEWER_FIELDS);
  if (welcomeField) {
    ctx.addIssue({
      code: 'custom',
      path: ['welcomeBack', 'template'],
      message: leadsWith('The welcome back reply', welcomeField),
    });
  }
  for (const kind of REPLY_EVENTS) {
    const reply = settings.replies[kind];
    const field = reply.enabled && leadingViewerField(reply.template, EVENT_VIEWER_FIELDS);
    if (field) {
      ctx.addIssue({
        code: 'custom',
        path: ['replies', kind, 'template'],
        message: leadsWith(`The ${REPLY_NAMES[kind]} reply`, field),
      });
    }
  }
});
