/**
 * The chat reading tools' settings (docs/chat-tools.md): highlight terms with a colour and an optional
 * sound, the ignore list, the first-message highlight and inline event rows. Platform-free: main keeps them
 * in the settings file, the panel applies them to what it shows; Kick never sees any of it.
 */
import { z } from 'zod';

/** Highlight terms kept at most; each is matched on every message, so the list stays short. */
export const HIGHLIGHTS_MAX = 50;
/** Ignored chatters kept at most. */
export const IGNORED_MAX = 500;
/** A private mod note's length at most, and how many chatters can have one. */
export const MOD_NOTE_MAX = 500;
export const MOD_NOTES_MAX = 5000;

const colour = z.string().regex(/^#[0-9a-f]{6}$/i, 'must be a colour such as #f5a623');

export const highlightSchema = z.object({
  /** Matched as whole words, any case; `*` stands for any letters, as in blocked terms. */
  term: z.string().trim().min(1).max(100),
  colour: colour.default('#f5a623'),
  /** A short tone when a live message matches. */
  sound: z.boolean().default(false),
});
export type Highlight = z.infer<typeof highlightSchema>;

/** A Kick username: 1–25 letters, digits or underscores, kept lower case. */
const username = z
  .string()
  .trim()
  .regex(/^@?[A-Za-z0-9_]{1,25}$/, 'must be a Kick username (letters, digits, _; at most 25)')
  .transform((name) => name.replace(/^@/, '').toLowerCase());

export const chatToolsSettingsSchema = z.object({
  highlights: z.array(highlightSchema).max(HIGHLIGHTS_MAX, `highlights: at most ${HIGHLIGHTS_MAX}`).default([]),
  /** Chatters whose messages this panel does not show (moderation still sees them in the user card). */
  ignoredUsers: z.array(username).max(IGNORED_MAX, `ignored chatters: at most ${IGNORED_MAX}`).default([]),
  /** Mark a chatter's first message in this channel. */
  firstMessageHighlight: z.boolean().default(true),
  /** Follows, subs, gifts, KICKs and redemptions as compact rows in chat. */
  inlineEvents: z.boolean().default(true),
});
export type ChatToolsSettings = z.infer<typeof chatToolsSettingsSchema>;

export const DEFAULT_CHAT_TOOLS_SETTINGS: ChatToolsSettings = chatToolsSettingsSchema.parse({});

/** Private mod notes by Kick user id (decimal string), kept in the settings file. */
export const modNotesSchema = z
  .record(z.string().regex(/^\d{1,15}$/), z.string().min(1).max(MOD_NOTE_MAX, `at most ${MOD_NOTE_MAX} characters`))
  .refine((notes) => Object.keys(notes).length <= MOD_NOTES_MAX, `mod notes: at most ${MOD_NOTES_MAX} chatters`);
