/**
 * What was left out of the settings file, in the streamer's words: "blocked term “x” was dropped: unknown
 * kind ‘foo’". The field paths (`automod.blockedTerms.terms[3]`) go in the details only
 * ([design notes](../../docs/design-notes.md#files-in-the-data-folder)).
 */
import type { z } from 'zod';
import type { LeftOut, SettingPath } from './settings-salvage';
import type { SettingsValues } from './settings-schema';

/** A settings field as the streamer knows it. */
export const FIELD_NAMES: Record<keyof SettingsValues, string> = {
  clientId: 'the Kick app client ID',
  redirectUri: 'the sign-in redirect URL',
  tunnel: 'the tunnel setting',
  wantedEvents: 'the events to receive',
  scopes: 'the permissions to ask Kick for',
  notifications: 'the desktop notification choices',
  chatScrollback: 'the chat length',
  lateAfterSec: 'the age after which an event is late',
  emoteHost: 'the emote server',
  installSubdomain: "this install's tunnel name",
  managedRewardIds: 'the rewards made in Greenroom',
  webhookPort: 'the webhook port',
  setupGuideDone: "the setup guide's progress",
  overlays: 'the overlay settings',
  streamerMode: 'streamer mode',
  theme: 'the colour theme',
  obs: 'the OBS connection',
  automod: 'the auto-moderation rules',
  chatBot: 'the chat bot settings',
  chatTools: 'the chat tools settings',
  modNotes: 'the mod notes',
  obsActions: 'the OBS actions',
  liveSocket: "Kick's live chat connection",
  history: 'how long the stream history keeps chat',
};

/** Fields named in the plural ("the auto-moderation rules were reset"). */
const PLURAL_FIELDS = new Set<keyof SettingsValues>([
  'wantedEvents',
  'scopes',
  'notifications',
  'managedRewardIds',
  'overlays',
  'automod',
  'chatBot',
  'chatTools',
  'modNotes',
  'obsActions',
]);

const RULE_NAMES: Record<string, string> = {
  blockedTerms: 'blocked terms',
  links: 'links',
  caps: 'capital letters',
  emotes: 'emotes',
  repeatedChars: 'repeated characters',
  repeatedMessages: 'repeated messages',
  rate: 'message rate',
};

const REPLY_NAMES: Record<string, string> = {
  follow: 'follows',
  subscription: 'new subs',
  renewal: 'resubs',
  'gifted-subs': 'gifted subs',
  kicks: 'KICKs',
  redemption: 'redemptions',
};

/** `#` stands for any list position, `*` for any key. */
const ENTRY_NAMES: { pattern: string[]; name: (value: unknown, path: SettingPath) => string }[] = [
  { pattern: ['automod', '*'], name: (_, p) => `the ${RULE_NAMES[String(p[1])] ?? 'auto-moderation'} rule` },
  { pattern: ['automod', 'blockedTerms', 'terms', '#'], name: (v) => entry('blocked term', member(v, 'pattern')) },
  { pattern: ['automod', 'links', 'allow', '#'], name: (v) => entry('allowed link', v) },
  { pattern: ['automod', 'exemptBadges', '#'], name: (v) => entry('exempt badge', v) },
  { pattern: ['chatBot', 'commands', '#'], name: (v) => entry('command', prefixed('!', member(v, 'name'))) },
  { pattern: ['chatBot', 'commands', '#', 'aliases', '#'], name: (v) => entry('command alias', v) },
  { pattern: ['chatBot', 'timers', '#'], name: (v) => entry('timer', member(v, 'message')) },
  { pattern: ['chatBot', 'replies', '*'], name: (_, p) => `the reply to ${REPLY_NAMES[String(p[2])] ?? 'an event'}` },
  { pattern: ['chatBot', 'replies', '*', 'rewards', '#'], name: (v) => entry('reward', v, ' of the redemption reply') },
  { pattern: ['chatTools', 'highlights', '#'], name: (v) => entry('highlight', member(v, 'term')) },
  { pattern: ['chatTools', 'ignoredUsers', '#'], name: (v) => entry('ignored chatter', v) },
  { pattern: ['managedRewardIds', '#'], name: (v) => entry('remembered reward', v) },
  { pattern: ['modNotes', '*'], name: (_, p) => `the mod note on user ${quoted(p[1])}` },
  { pattern: ['wantedEvents', '#'], name: (v) => entry('event', v) },
  { pattern: ['scopes', '#'], name: (v) => entry('permission', v) },
  { pattern: ['overlays', '*', 'botNames', '#'], name: (v) => entry('bot name', v) },
];

/** One left-out part as a phrase: "blocked term “x” was dropped: unknown kind ‘foo’". */
export function describeLeftOut(field: keyof SettingsValues, left: LeftOut): string {
  const named = nameOf([field, ...left.path], left.value);
  const plural = left.path.length === 0 && PLURAL_FIELDS.has(field);
  const done =
    left.how === 'dropped' ? 'was dropped' : plural ? 'were reset to their defaults' : 'was reset to its default';
  return `${named} ${done}: ${reasonOf(left)}`;
}

/** Where it was, for the details: `automod.blockedTerms.terms[3]: Invalid option: …`. */
export function detailOf(field: keyof SettingsValues, left: LeftOut): string {
  const where = left.path.map((key) => (typeof key === 'number' ? `[${key}]` : `.${String(key)}`));
  return `${field}${where.join('')}: ${left.issue.message}`;
}

function nameOf(path: SettingPath, value: unknown): string {
  const fits = (pattern: string[]): boolean => pattern.every((part, i) => i < path.length && matches(part, path[i]!));
  const exact = ENTRY_NAMES.find(({ pattern }) => pattern.length === path.length && fits(pattern));
  if (exact) {
    return exact.name(value, path);
  }
  // A value inside a named entry (an event reply's message): the entry is named.
  const holder = ENTRY_NAMES.filter(({ pattern }) => pattern.length < path.length && fits(pattern)).sort(
    (a, b) => b.pattern.length - a.pattern.length,
  )[0];
  if (holder) {
    return `a value in ${holder.name(undefined, path)}`;
  }
  const field = FIELD_NAMES[path[0] as keyof SettingsValues] ?? 'the settings';
  return path.length === 1 ? capitalised(field) : `a value in ${field}`;
}

function matches(part: string, key: PropertyKey): boolean {
  return part === '#' ? typeof key === 'number' : part === '*' ? typeof key === 'string' : part === key;
}

/** Why, from zod's issue and the value it was about. */
function reasonOf(left: LeftOut): string {
  const { issue, bad } = left;
  const inner = issue.path.slice(left.path.length);
  // A value reset on its own ("template") is named by its key; a list entry or map entry is "it".
  const named = inner.length > 0 || left.how === 'dropped' ? inner : left.path.slice(-1);
  const leaf = [...named].reverse().find((key) => typeof key === 'string');
  const what = typeof leaf === 'string' ? leaf : 'it';
  // A message the schema wrote itself ("must be a Kick username …") says it best.
  if (!/^(Invalid|Too (small|big))\b/.test(issue.message) && issue.code !== 'too_big') {
    return /^must\b/.test(issue.message) ? `${what} ${issue.message}` : issue.message;
  }
  switch (issue.code) {
    case 'invalid_value':
      return what === 'it' ? `${quotedSingle(bad)} is not one Greenroom knows` : `unknown ${what} ${quotedSingle(bad)}`;
    case 'invalid_type':
      return bad === undefined
        ? `${what} is missing`
        : `${what} should be ${TYPE_NAMES[issue.expected] ?? issue.expected}`;
    case 'too_big':
      return issue.origin === 'array'
        ? `only the first ${String(issue.maximum)} are kept`
        : `${what} is ${issue.origin === 'string' ? 'too long' : 'too large'} (at most ${String(issue.maximum)})`;
    case 'too_small':
      return issue.origin === 'string' && Number(issue.minimum) === 1
        ? `${what} is empty`
        : `${what} is ${issue.origin === 'string' ? 'too short' : 'too small'} (at least ${String(issue.minimum)})`;
    case 'invalid_key':
      return 'its key is not valid';
    default:
      return `${what} is not in the right form`;
  }
}

const TYPE_NAMES: Partial<Record<z.core.$ZodIssueInvalidType['expected'], string>> = {
  string: 'text',
  number: 'a number',
  int: 'a whole number',
  boolean: 'on or off',
  array: 'a list',
  object: 'a group of settings',
};

function member(value: unknown, key: string): unknown {
  return typeof value === 'object' && value !== null ? (value as Record<string, unknown>)[key] : undefined;
}

/** "blocked term “x”", or "a blocked term" when the entry has no name to show. */
function entry(noun: string, name: unknown, after = ''): string {
  return name === undefined || name === null || name === '' ? `a ${noun}${after}` : `${noun} ${quoted(name)}${after}`;
}

function prefixed(prefix: string, name: unknown): unknown {
  return typeof name === 'string' && name !== '' ? `${prefix}${name}` : name;
}

/** A value from the file, short and printable, in curly quotes. */
function quoted(value: unknown): string {
  return `“${short(value)}”`;
}

function quotedSingle(value: unknown): string {
  return `‘${short(value)}’`;
}

function short(value: unknown): string {
  const text = typeof value === 'string' ? value : (JSON.stringify(value) ?? String(value));
  // eslint-disable-next-line no-control-regex -- control characters from a file must not reach a terminal
  const clean = text.replace(/[\u0000-\u001f\u007f-\u009f]/g, ' ');
  return clean.length > 40 ? `${clean.slice(0, 39)}…` : clean;
}

function capitalised(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
