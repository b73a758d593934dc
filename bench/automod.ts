/**
 * Issue 13's `automod-per-message-us`: the p99 time auto-moderation takes to judge one chat message, with
 * 200 blocked terms (plain and wildcard), 20 regular expressions and every spam rule on, over a 100k-message
 * raid corpus (bench/lib/raid-chat.ts: thousands of senders, emotes, lengths up to Kick's 500 characters)
 * with spam mixed in: links, capitals, repeated characters and repeated lines. Nobody exempt, nothing in
 * dry run, so every rule runs on every message until one matches. In this process: the figure is the rule
 * engine's own cost (electron/automod/automod.ts), which main pays before each message is shown.
 */
import { DEFAULT_AUTOMOD_SETTINGS } from '../shared/automod';
import type { ChatMessageView } from '../shared/views';
import { Automod } from '../electron/automod/automod';
import { raidLine, raidSenders, seededRandom } from './lib/raid-chat';
import { quantile, round } from './lib/stats';
import type { BenchResult } from './types';

const MESSAGES = Number(process.env.GREENROOM_BENCH_AUTOMOD_MESSAGES ?? 100_000);
const SPAM = [
  'FREE VIEWERS AND FOLLOWERS AT CHEAPVIEWS DOT SHOP',
  'check out my stream at twitch-promo.example/live',
  'lets gooooooooooooooooooooooo',
  'buy followers now',
  'b1tc0in giveaway join fast',
];

function corpus(): ChatMessageView[] {
  const rng = seededRandom(13);
  const senders = raidSenders(rng, 4000);
  return Array.from({ length: MESSAGES }, (_, i) => {
    const sender = senders[Math.floor(rng() * senders.length)]!;
    const content = rng() < 0.05 ? SPAM[Math.floor(rng() * SPAM.length)]! : raidLine(rng);
    return {
      messageId: `b${i}`,
      content,
      emotes: [],
      sender: {
        userId: sender.user_id,
        username: sender.username,
        color: sender.identity.username_color,
        badges: sender.identity.badges,
        isVerified: false,
      },
      replyTo: null,
      sentAtMs: 0,
      deleted: false,
    };
  });
}

function settings() {
  const s = structuredClone(DEFAULT_AUTOMOD_SETTINGS);
  const rng = seededRandom(7);
  const word = (): string =>
    Array.from({ length: 5 + Math.floor(rng() * 6) }, () => String.fromCharCode(97 + Math.floor(rng() * 26))).join('');
  s.enabled = true;
  s.dryRun = false;
  s.exemptBadges = [];
  s.blockedTerms.terms = [
    ...Array.from({ length: 150 }, () => ({ pattern: `${word()} ${word()}`, kind: 'plain' as const })),
    ...Array.from({ length: 50 }, () => ({ pattern: `${word()}*${word().slice(0, 3)}`, kind: 'wildcard' as const })),
    ...Array.from({ length: 20 }, (_, i) => ({
      pattern: `b[i1]tc[o0]in\\s+${word()}|${word()}${i}\\d{2,4}`,
      kind: 'regex' as const,
    })),
  ];
  s.links.enabled = true;
  s.links.allowSeenChatters = false;
  s.caps.enabled = true;
  s.emotes.enabled = true;
  s.repeatedChars.enabled = true;
  s.repeatedMessages.enabled = true;
  s.rate.enabled = true;
  return s;
}

export function run(): Promise<BenchResult[]> {
  const messages = corpus();
  const mod = new Automod(settings());
  if (mod.refusedTerms().length > 0) {
    throw new Error(`the bench's regexes were refused: ${JSON.stringify(mod.refusedTerms())}`);
  }
  // Warm-up on a separate copy of the rules, so the JIT has compiled the path the measured run takes.
  const warm = new Automod(settings());
  for (let i = 0; i < 20_000; i++) {
    warm.judge(messages[i]!, i * 2);
  }
  const times = new Float64Array(messages.length);
  let matched = 0;
  for (let i = 0; i < messages.length; i++) {
    const start = process.hrtime.bigint();
    // 400 messages/s, as in the chat storm: 2.5 ms apart.
    if (mod.judge(messages[i]!, i * 2.5) !== null) {
      matched += 1;
    }
    times[i] = Number(process.hrtime.bigint() - start) / 1000;
  }
  console.error(
    `automod: ${messages.length} messages, ${matched} matched a rule; p50 ${round(quantile([...times], 0.5), 2)} µs`,
  );
  return Promise.resolve([
    {
      name: 'automod-per-message-us',
      value: round(quantile([...times], 0.99), 2),
      unit: 'µs',
      target: { op: '<=', value: 50 },
    },
  ]);
}
