/**
 * Chat as a raid brings it, for the storm benchmark: thousands of senders with their own colours and
 * badges, emotes (alone, repeated, inside text), replies to recent lines, and lengths from one word to
 * Kick's 500 characters. Deterministic for a seed, so runs compare like with like.
 */
import { CHAT_LINES, EMOTES, REPLY_LINES, STORM_LINES } from '../../sandbox/admin/vocabulary';
import { LIMITS } from '../../shared/limits';

/** A xorshift generator: fast and seedable (Math.random is neither). */
export function seededRandom(seed: number): () => number {
  let x = seed >>> 0 || 1;
  return () => {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    return (x >>> 0) / 4294967296;
  };
}

const pick = <T>(rng: () => number, list: readonly T[]): T => list[Math.floor(rng() * list.length)]!;

const WORDS = ['raid', 'hype', 'clip', 'gg', 'insane', 'pog', 'chat', 'streamer', 'lets', 'go', 'no', 'way'];
const NAME_PARTS = ['raider', 'pixel', 'storm', 'lurk', 'turbo', 'night', 'kappa', 'frost', 'neon', 'echo'];
const COLOURS = ['#FF6B6B', '#4ECDC4', '#FFD93D', '#6BCB77', '#4D96FF', '#C77DFF', '#FF9F1C', '#2EC4B6'];
const EMOJI = ['🔥', '😂', '💀', '🎉', '👀', '❤️', '🤯', '🙏'];

export interface Sender {
  user_id: number;
  username: string;
  is_verified: boolean;
  channel_slug: string;
  identity: { username_color: string; badges: { text: string; type: string; count?: number }[] };
}

/** The raid's senders: `count` synthetic viewers with badges in realistic proportions. */
export function raidSenders(rng: () => number, count: number): Sender[] {
  return Array.from({ length: count }, (_, i) => {
    const username = `${pick(rng, NAME_PARTS)}_${pick(rng, WORDS)}${i}`;
    const badges: Sender['identity']['badges'] = [];
    const roll = rng();
    if (roll < 0.01) {
      badges.push({ text: 'Moderator', type: 'moderator' });
    } else if (roll < 0.03) {
      badges.push({ text: 'VIP', type: 'vip' });
    } else if (roll < 0.05) {
      badges.push({ text: 'OG', type: 'og' });
    }
    if (rng() < 0.3) {
      badges.push({ text: 'Subscriber', type: 'subscriber', count: 1 + Math.floor(rng() * 36) });
    }
    if (rng() < 0.05) {
      badges.push({ text: 'Sub Gifter', type: 'sub_gifter', count: 1 + Math.floor(rng() * 100) });
    }
    return {
      user_id: 5_000_000 + i,
      username,
      is_verified: rng() < 0.01,
      channel_slug: username.replace(/_/g, '-'),
      identity: { username_color: pick(rng, COLOURS), badges },
    };
  });
}

const emote = (rng: () => number): string => {
  const e = pick(rng, EMOTES);
  return `[emote:${e.id}:${e.name}]`;
};

/** One line's text: mostly short, some long, a few at the 500-character limit. */
export function raidLine(rng: () => number): string {
  const kind = rng();
  let text: string;
  if (kind < 0.08) {
    // Emote spam: the same emote a few times.
    const e = emote(rng);
    text = Array.from({ length: 2 + Math.floor(rng() * 5) }, () => e).join(' ');
  } else if (kind < 0.6) {
    text = pick(rng, rng() < 0.5 ? STORM_LINES : CHAT_LINES);
  } else if (kind < 0.85) {
    text = Array.from({ length: 2 + Math.floor(rng() * 3) }, () => pick(rng, CHAT_LINES)).join(' ');
  } else {
    // Long lines: copypasta up to the limit.
    const target = 150 + Math.floor(rng() * (LIMITS.chatContentMax - 150));
    text = pick(rng, CHAT_LINES);
    while (text.length < target) {
      text += ` ${rng() < 0.2 ? emote(rng) : pick(rng, rng() < 0.1 ? EMOJI : WORDS)}`;
    }
  }
  if (kind >= 0.08 && rng() < 0.35) {
    const emotes = Array.from({ length: 1 + Math.floor(rng() * 3) }, () => emote(rng)).join(' ');
    text = rng() < 0.5 ? `${text} ${emotes}` : `${emotes} ${text}`;
  }
  if (rng() < 0.1) {
    text += ` ${pick(rng, EMOJI)}`;
  }
  // Kick counts code points; trim whole code points (never half an emoji) to the limit.
  const points = [...text];
  return points.length > LIMITS.chatContentMax ? points.slice(0, LIMITS.chatContentMax).join('').trimEnd() : text;
}

/** Keeps `id` among the latest lines a storm message may reply to (the last 50). */
export function rememberLine(recentIds: string[], id: string): void {
  recentIds.push(id);
  if (recentIds.length > 50) {
    recentIds.shift();
  }
}

/** The trigger overrides for one storm message: content, sender and sometimes a reply to a recent line. */
export function raidMessage(
  rng: () => number,
  senders: readonly Sender[],
  recentIds: readonly string[],
): Record<string, unknown> {
  const reply = recentIds.length > 0 && rng() < 0.12;
  const overrides: Record<string, unknown> = {
    content: reply ? `${pick(rng, REPLY_LINES)}${rng() < 0.3 ? ` ${emote(rng)}` : ''}` : raidLine(rng),
    sender: pick(rng, senders),
  };
  if (reply) {
    overrides['replies_to.message_id'] = pick(rng, recentIds);
  }
  return overrides;
}
