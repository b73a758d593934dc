/**
 * Auto-moderation's decision (docs/automod.md): each chat message, before it is shown, against the rules
 * in order (blocked terms, links, caps, emotes, repeated characters, repeated messages, rate); the first
 * that matches decides. Holders of an exempt badge are never judged. Pure apart from the per-chatter
 * memory it keeps (recent messages for the repeat and rate rules, chatters seen before for the link rule),
 * which the journal replay at start-up fills through `remember` without acting.
 *
 * Every rule but the emote count reads the message folded (docs/automod.md#what-the-rules-read): terms,
 * regexes and repeats the letters as `fold` leaves them, capitals its cased fold (case kept), and
 * links as the panel finds them (`findLinks`), judged by the host a browser would open.
 */
import type { AutomodSettings, AutomodVerdict } from '../../shared/automod';
import { EMOTE_MARK, EMOTE_TOKEN } from '../../shared/emotes';
import { findLinks } from '../../shared/links';
import { fold } from '../../shared/normalise-text';
import type { ChatMessageView } from '../../shared/views';
import { charMemo } from './char-memo';
import { buildTermMatcher, type RefusedTerm, type TermMatcher } from './term-matcher';

/**
 * A chatter's recent lines, oldest first: when each came and its text normalised, in two arrays of one length. No
 * object per line: a raid fills this for the repeated message rule's whole window (a minute by default), and an
 * object and a boxed time for each line were most of what it held (docs/decisions.md#the-rules-memory-holds-no-object-per-line).
 */
export interface RecentLines {
  times: number[];
  texts: string[];
}

/** Chatters remembered at most (least recently active go first). */
const MAX_CHATTERS = 20_000;
/** Messages kept per chatter for the repeat and rate rules, at most: the rate rule counts up to 101. */
const PER_CHATTER = 101;
/**
 * Every so many lines noted, up to twice as many chatters whose lines have all left the rules' windows are
 * forgotten: the memory shrinks as fast as it grew.
 */
const SWEEP_EVERY = 64;

/** Printable ASCII only: what folding leaves as it is but for case (shared/normalise-text.ts). */
const PLAIN = /^[\x20-\x7e]*$/;

export class Automod {
  #settings: AutomodSettings;
  #terms: TermMatcher;
  #refused: RefusedTerm[];
  readonly #recent = new Map<ChatterKey, RecentLines>();
  readonly #seen = new Set<ChatterKey>();
  /** Lines noted, for the sweep's turn. */
  #notes = 0;
  /** The cut-off the last sweep was asked for: a sweep goes no further than the earlier of it and its own. */
  #lastSince = -Infinity;
  #allow: { from: readonly string[]; hosts: string[] } = { from: [], hosts: [] };

  constructor(settings: AutomodSettings) {
    this.#settings = settings;
    ({ matcher: this.#terms, refused: this.#refused } = buildTermMatcher(settings.blockedTerms.terms));
  }

  /** New rules; the blocked terms are compiled again only when they changed. */
  configure(settings: AutomodSettings): void {
    if (JSON.stringify(settings.blockedTerms.terms) !== JSON.stringify(this.#settings.blockedTerms.terms)) {
      ({ matcher: this.#terms, refused: this.#refused } = buildTermMatcher(settings.blockedTerms.terms));
    }
    this.#settings = settings;
    if (this.#keepMs() === 0) {
      this.#recent.clear(); // no rule that is on looks back: switched on again, they count from then
    }
  }

  /** Forgets the least recently active chatters whose newest line is before `since`, a bounded number at a time. */
  #sweep(lineSince: number): void {
    if (!Number.isFinite(lineSince)) {
      return;
    }
    // Two sweeps 64 lines apart must agree: one line timed far ahead (a computer's clock running fast) cannot
    // forget chatters whose lines are still in the window.
    const since = Math.min(lineSince, this.#lastSince);
    this.#lastSince = lineSince;
    let left = 2 * SWEEP_EVERY;
    for (const [key, lines] of this.#recent) {
      if (left-- === 0 || lines.times[lines.times.length - 1]! >= since) {
        return;
      }
      this.#recent.delete(key);
    }
  }

  /** What the repeat and rate rules hold now: chatters and their lines (what the tests read). */
  remembered(): { chatters: number; lines: number } {
    let lines = 0;
    for (const list of this.#recent.values()) {
      lines += list.times.length;
    }
    return { chatters: this.#recent.size, lines };
  }

  /** Terms the matcher refused (unsafe or invalid regexes), with why. */
  refusedTerms(): RefusedTerm[] {
    return [...this.#refused];
  }

  /** A message from the journal replay: remembered for the rules, never judged. */
  remember(message: ChatMessageView, atMs: number): void {
    const key = chatterKey(message);
    if (this.#keepMs() > 0) {
      this.#note(key, normalise(fold(message.content).letters), atMs);
    }
    this.#see(key);
  }

  /** Remembers a chatter as seen; past the bound the earliest seen are forgotten, a journal replay's too. */
  #see(key: ChatterKey): void {
    this.#seen.add(key);
    while (this.#seen.size > MAX_CHATTERS) {
      this.#seen.delete(this.#seen.values().next().value!);
    }
  }

  /**
   * How long a chatter's lines matter to the rules on now: the longest window of the repeat and rate rules
   * that are on, or 0 when neither is (or auto-moderation is off). Lines older than that are not kept
   * ([automod](../../docs/automod.md#what-the-rules-remember)).
   */
  #keepMs(): number {
    const s = this.#settings;
    if (!s.enabled) {
      return 0;
    }
    const repeat = s.repeatedMessages.enabled ? s.repeatedMessages.windowSec : 0;
    const rate = s.rate.enabled ? s.rate.perSec : 0;
    return Math.max(repeat, rate) * 1000;
  }

  /**
   * Judges a live message and remembers it; null when it passes, when auto-moderation is off, or for an
   * exempt chatter.
   */
  judge(message: ChatMessageView, atMs: number): AutomodVerdict | null {
    const key = chatterKey(message);
    const seenBefore = this.#seen.has(key);
    this.#see(key);
    if (!this.#settings.enabled) {
      return null; // nothing to judge, and nothing folded or kept for rules that are off
    }
    const folded = fold(message.content);
    const normal = normalise(folded.letters);
    const keepMs = this.#keepMs();
    const recent = keepMs > 0 ? this.#note(key, normal, atMs, keepMs) : { times: [atMs], texts: [normal] };
    return this.check(message, { seenBefore, recent, atMs, normal, folded });
  }

  /**
   * The verdict for one message without remembering it: what `judge` does, and what the panel's "test a
   * message" shows. `recent` is the chatter's messages including this one, oldest first, normalised;
   * `normal` and `folded` are this message's, when the caller has them already.
   */
  check(
    message: Pick<ChatMessageView, 'content' | 'sender'>,
    context: {
      seenBefore: boolean;
      recent: { readonly times: readonly number[]; readonly texts: readonly string[] };
      atMs: number;
      normal?: string;
      folded?: Folded;
    },
  ): AutomodVerdict | null {
    const s = this.#settings;
    if (!s.enabled || this.#exempt(message.sender.badges)) {
      return null;
    }
    const text = message.content;
    const hasEmotes = text.includes(EMOTE_MARK);
    const words = hasEmotes ? text.replace(EMOTE_TOKEN, ' ') : text;
    const whole = context.folded ?? fold(text);
    const { cased, letters: folded } = hasEmotes ? withoutEmotes(text, words, whole) : whole;
    if (s.blockedTerms.enabled) {
      const term = this.#terms.match(folded);
      if (term !== null) {
        return verdict('blocked-term', `blocked term “${term}”`, s.blockedTerms.action, s.dryRun);
      }
    }
    if (s.links.enabled && !(s.links.allowSeenChatters && context.seenBefore)) {
      const hosts = this.#allowedHosts(s.links.allow);
      const foreign = findLinks(words).find((link) => !allowed(link.host, hosts));
      if (foreign) {
        // The host is named when the text hides it (`https://evil.io\.kick.com`, `evil。io`).
        const shown = foreign.text.slice(0, 60);
        const opens = shown.toLowerCase().includes(foreign.host) ? '' : ` (opens ${foreign.host})`;
        return verdict('link', `link ${shown}${opens}`, s.links.action, s.dryRun);
      }
    }
    if (s.caps.enabled) {
      const { letters, upper } = countCase(cased);
      if (letters >= s.caps.minLetters && upper / letters > s.caps.maxRatio) {
        return verdict('caps', `${Math.round((upper / letters) * 100)}% capitals`, s.caps.action, s.dryRun);
      }
    }
    if (s.emotes.enabled && hasEmotes) {
      let count = 0;
      for (let at = text.indexOf('[emote:'); at >= 0; at = text.indexOf('[emote:', at + 7)) {
        count += 1;
      }
      if (count > s.emotes.max) {
        return verdict('emotes', `${count} emotes`, s.emotes.action, s.dryRun);
      }
    }
    if (s.repeatedChars.enabled) {
      const run = longestRun(folded);
      if (run.length > s.repeatedChars.max) {
        const reason = `“${run.char}” ${run.length} times in a row`;
        return verdict('repeated-chars', reason, s.repeatedChars.action, s.dryRun);
      }
    }
    if (s.repeatedMessages.enabled) {
      const since = context.atMs - s.repeatedMessages.windowSec * 1000;
      const normal = context.normal ?? normalise(fold(text).letters);
      const { times, texts } = context.recent;
      let same = 0;
      // Newest first, stopping at the window's start.
      for (let i = times.length - 1; i >= 0 && times[i]! >= since; i--) {
        if (texts[i] === normal) {
          same += 1;
        }
      }
      if (same >= s.repeatedMessages.count) {
        return verdict('repeated-message', `the same message ${same} times`, s.repeatedMessages.action, s.dryRun);
      }
    }
    if (s.rate.enabled) {
      const since = context.atMs - s.rate.perSec * 1000;
      const { times } = context.recent;
      let count = 0;
      for (let i = times.length - 1; i >= 0 && times[i]! >= since; i--) {
        count += 1;
      }
      if (count > s.rate.messages) {
        return verdict('rate', `${count} messages in ${s.rate.perSec} s`, s.rate.action, s.dryRun);
      }
    }
    return null;
  }

  /** The allow-list as hosts compare: lower case, punycode, no leading or trailing dots; kept per list. */
  #allowedHosts(domains: readonly string[]): string[] {
    if (this.#allow.from !== domains) {
      this.#allow = { from: domains, hosts: domains.map(hostOf).filter((host) => host !== '') };
    }
    return this.#allow.hosts;
  }

  #exempt(badges: readonly { type: string }[]): boolean {
    if (badges.length === 0) {
      return false;
    }
    const exempt = this.#settings.exemptBadges as readonly string[];
    return badges.some((badge) => exempt.includes(badge.type));
  }

  /**
   * Keeps the message (`normal`: its text normalised) in the chatter's recent list, less the lines older than
   * `keepMs`; returns the list, oldest first. Chatters whose every line is older are forgotten a few at a time.
   */
  #note(key: ChatterKey, normal: string, atMs: number, keepMs = this.#keepMs()): RecentLines {
    const list = this.#recent.get(key) ?? { times: [], texts: [] };
    const { times, texts } = list;
    this.#recent.delete(key);
    // Kept normalised: the repeat rule compares every kept line with each new one.
    times.push(atMs);
    texts.push(normal);
    const since = atMs - keepMs;
    let old = 0;
    while (old < times.length - 1 && times[old]! < since) {
      old++;
    }
    const over = Math.max(old, times.length - PER_CHATTER);
    if (over > 0) {
      times.splice(0, over);
      texts.splice(0, over);
    }
    // Map order is least recently active first, so the stale chatters are at its head. Swept every so many lines,
    // not per line: an iterator per line cost a tenth of the rules' time.
    if (++this.#notes % SWEEP_EVERY === 0) {
      this.#sweep(since);
    }
    this.#recent.set(key, list);
    if (this.#recent.size > MAX_CHATTERS) {
      this.#recent.delete(this.#recent.keys().next().value!);
    }
    return list;
  }
}

/**
 * A chatter's key in the rules' memory: the user id as a number (a small integer hashes at once; a string made
 * afresh for every message is hashed again each time), the name for a chatter without one.
 */
type ChatterKey = number | string;

function chatterKey(message: Pick<ChatMessageView, 'sender'>): ChatterKey {
  return message.sender.userId === null ? `name:${message.sender.username.toLowerCase()}` : message.sender.userId;
}

/** A verdict; a plain function rather than a closure made for every message judged. */
function verdict(
  rule: AutomodVerdict['rule'],
  reason: string,
  action: AutomodVerdict['action'],
  dryRun: boolean,
): AutomodVerdict {
  return { rule, reason, action, dryRun };
}

/**
 * The message's folds with its emote tokens taken out. Tokens are ASCII, so folding leaves them in place and
 * they can be taken out of the folds; unless folding made new ones (a fullwidth ［ folds to [), which would
 * hide what they hold: then the text without its tokens is folded afresh.
 */
function withoutEmotes(text: string, words: string, whole: Folded): Folded {
  // Plain text folds to itself (cheaply): folding it again without the tokens costs less than counting. Other
  // text (an emoji is enough) is folded once: a second fold of a long line cost as much as every rule after it.
  if (PLAIN.test(text) || tokens(whole.letters) !== tokens(text)) {
    return fold(words);
  }
  return { cased: whole.cased.replace(EMOTE_TOKEN, ' '), letters: whole.letters.replace(EMOTE_TOKEN, ' ') };
}

type Folded = ReturnType<typeof fold>;

const tokens = (s: string): number => s.match(EMOTE_TOKEN)?.length ?? 0;

/** The longest run of one character (a code point) in `text`. */
function longestRun(text: string): { char: string; length: number } {
  // The best run as two numbers, so a scan of a long line makes no object or string until its end.
  let bestCode = -1;
  let bestLength = 0;
  let previous = -1;
  let length = 0;
  for (let i = 0; i < text.length; i++) {
    let code = text.charCodeAt(i);
    if (code >= 0xd800 && code <= 0xdbff) {
      code = text.codePointAt(i)!;
      if (code > 0xffff) {
        i++;
      }
    }
    length = code === previous ? length + 1 : 1;
    previous = code;
    if (length > bestLength) {
      bestCode = code;
      bestLength = length;
    }
  }
  return { char: bestCode < 0 ? '' : String.fromCodePoint(bestCode), length: bestLength };
}

/** Letters and capitals in `text`: a scan, since matching every letter into an array costs more than the rest. */
function countCase(text: string): { letters: number; upper: number } {
  let letters = 0;
  let upper = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code >= 65 && code <= 90) {
      letters += 1;
      upper += 1;
    } else if (code >= 97 && code <= 122) {
      letters += 1;
    } else if (code > 127 && (code < 0xd800 || code > 0xdfff)) {
      // Half of a surrogate pair, read alone, has no case: skipped, as the case test would.
      const kind = caseOf(code);
      if (kind !== CASELESS) {
        letters += 1;
        if (kind === UPPER) {
          upper += 1;
        }
      }
    }
  }
  return { letters, upper };
}

const CASELESS = 0;
const LOWER = 1;
const UPPER = 2;
/** A code unit's case as `countCase` reads it: a letter when its lower and upper case differ. */
const caseOf = charMemo((code: number): number => {
  const c = String.fromCharCode(code);
  const lower = c.toLowerCase();
  return lower === c.toUpperCase() ? CASELESS : c === lower ? LOWER : UPPER;
});

/**
 * Whether `text` has white space other than single spaces between words (what `normalise` changes): two
 * together, any but the plain space (a line separator alone between two words is uneven), or one at an end.
 */
const UNEVEN_SPACE = /\s\s|[^\S ]|^\s|\s$/;

export function unevenSpace(text: string): boolean {
  return UNEVEN_SPACE.test(text);
}

/** Folded text with runs of white space as one space; the replace only for the few lines that need it. */
function normalise(folded: string): string {
  return unevenSpace(folded) ? folded.replace(/\s+/g, ' ').trim() : folded;
}

/** An allow-list entry as a host: what a browser would make of `https://<entry>/`. */
function hostOf(domain: string): string {
  const bare = domain.trim().replace(/^\.+|\.+$/g, '');
  const href = `https://${bare}/`;
  return bare !== '' && URL.canParse(href) ? new URL(href).hostname : '';
}

/** A link is allowed when its host is an allowed host or under one. */
function allowed(host: string, hosts: readonly string[]): boolean {
  const h = host.replace(/\.$/, '');
  return hosts.some((d) => h === d || h.endsWith(`.${d}`));
}
