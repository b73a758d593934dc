/**
 * Auto-moderation's settings and verdicts (docs/automod.md): rules main applies to each chat message before
 * it is shown, what each rule does when it matches, and who is exempt. Platform-free: main evaluates, the
 * panel edits and tests messages against the rules.
 */
import { z } from 'zod';
import { refusedRegexes } from './safe-regex';

export const AUTOMOD_RULES = [
  'blocked-term',
  'link',
  'caps',
  'emotes',
  'repeated-chars',
  'repeated-message',
  'rate',
] as const;
export type AutomodRule = (typeof AUTOMOD_RULES)[number];

/** Badges whose holders no rule touches, as Kick names them in `identity.badges[].type`. */
export const EXEMPTABLE_BADGES = ['broadcaster', 'moderator', 'vip', 'subscriber', 'og', 'founder'] as const;

export const automodActionSchema = z.object({
  /** hide: not shown in Greenroom (Kick still shows it); the others act on Kick. */
  kind: z.enum(['hide', 'delete', 'timeout', 'ban']),
  /** For `timeout`: Kick allows 1–10080 minutes. */
  minutes: z.int().min(1).max(10_080).default(5),
});
export type AutomodAction = z.infer<typeof automodActionSchema>;

const action = (kind: AutomodAction['kind'], minutes = 5) => automodActionSchema.prefault({ kind, minutes });

export const blockedTermSchema = z.object({
  pattern: z.string().min(1).max(200),
  /**
   * plain: the words anywhere, any case; wildcard: `*` stands for any letters; regex: a regular expression
   * in RE2's syntax (JavaScript's, less backreferences and lookaround). All read the message folded
   * (shared/normalise-text.ts).
   */
  kind: z.enum(['plain', 'wildcard', 'regex']).default('plain'),
});
export type BlockedTerm = z.infer<typeof blockedTermSchema>;

export const automodSettingsSchema = z.object({
  enabled: z.boolean().default(false),
  /** Flags what the rules would do, in the mod log, and does nothing. */
  dryRun: z.boolean().default(true),
  exemptBadges: z.array(z.enum(EXEMPTABLE_BADGES)).default(['broadcaster', 'moderator', 'vip']),
  blockedTerms: z
    .object({
      enabled: z.boolean().default(true),
      terms: z.array(blockedTermSchema).max(1000).default([]),
      action: action('delete'),
    })
    .prefault({}),
  links: z
    .object({
      enabled: z.boolean().default(false),
      /** Domains (and their subdomains) always allowed, e.g. `kick.com`. */
      allow: z.array(z.string().min(1).max(100)).max(200).default(['kick.com']),
      /** A chatter seen before in this channel may post any link. */
      allowSeenChatters: z.boolean().default(true),
      action: action('delete'),
    })
    .prefault({}),
  caps: z
    .object({
      enabled: z.boolean().default(false),
      /** Only messages with at least this many letters are judged. */
      minLetters: z.int().min(1).max(500).default(12),
      /** Share of capital letters above which the message matches, 0.5–1. */
      maxRatio: z.number().min(0.5).max(1).default(0.8),
      action: action('hide'),
    })
    .prefault({}),
  emotes: z
    .object({ enabled: z.boolean().default(false), max: z.int().min(1).max(100).default(10), action: action('hide') })
    .prefault({}),
  repeatedChars: z
    .object({
      enabled: z.boolean().default(false),
      /** The same character more than this many times in a row. */
      max: z.int().min(3).max(100).default(15),
      action: action('hide'),
    })
    .prefault({}),
  repeatedMessages: z
    .object({
      enabled: z.boolean().default(false),
      /** The same text from one chatter this many times within the window. */
      count: z.int().min(2).max(20).default(3),
      windowSec: z.int().min(5).max(3600).default(60),
      action: action('timeout', 1),
    })
    .prefault({}),
  rate: z
    .object({
      enabled: z.boolean().default(false),
      messages: z.int().min(2).max(100).default(6),
      perSec: z.int().min(1).max(600).default(10),
      action: action('timeout', 1),
    })
    .prefault({}),
});
export type AutomodSettings = z.infer<typeof automodSettingsSchema>;

export const DEFAULT_AUTOMOD_SETTINGS: AutomodSettings = automodSettingsSchema.parse({});

/**
 * The rules as a panel may save them: every regular expression must compile on RE2 within its budget, and
 * the rule set's regular expressions within theirs, so one that would be refused or left unused is refused
 * at Save with the reason. (The settings file is read with the plain schema: a saved rule set is never
 * thrown away over one term; the matcher skips and logs it, docs/automod.md#regular-expressions.)
 */
export const automodSaveSchema = automodSettingsSchema.superRefine((settings, ctx) => {
  const regexes = settings.blockedTerms.terms.flatMap((term, i) => (term.kind === 'regex' ? [{ term, i }] : []));
  const reasons = refusedRegexes(regexes.map(({ term }) => term.pattern));
  regexes.forEach(({ term, i }, n) => {
    const reason = reasons[n];
    if (reason) {
      ctx.addIssue({
        code: 'custom',
        path: ['blockedTerms', 'terms', i, 'pattern'],
        message: `the regular expression ${term.pattern} is refused: ${reason}`,
      });
    }
  });
});

/** What the rules decided about one message. */
export interface AutomodVerdict {
  rule: AutomodRule;
  /** In the streamer's words: "blocked term “free followers”", "7 links", "92% capitals". */
  reason: string;
  action: AutomodAction;
  /** True when dry run only flagged it. */
  dryRun: boolean;
}
