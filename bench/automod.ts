/**
 * `automod-per-message-us`: the p99 time auto-moderation takes to judge one chat message, with
 * 200 blocked terms (plain and wildcard), 20 regular expressions and every spam rule on, over a 100k-message
 * raid corpus (bench/lib/raid-chat.ts: thousands of senders, emotes, lengths up to Kick's 500 characters)
 * with spam mixed in: links, capitals, repeated characters and repeated lines. Nobody exempt, nothing in
 * dry run, so every rule runs on every message until one matches. The figure is the rule engine's own cost
 * (electron/automod/automod.ts), which main pays before each message is shown, so it is measured on the Node main
 * runs on (`lib/app-node.ts`), in three fresh processes: the figure is the p99 of their judgements together, and each
 * process's own p99 goes to stderr. A process's p99 depends on how its JIT compiled the rules (40–45 µs in most
 * processes on the two-core machine, up to 50 in some), so one process alone reads its luck as much as the engine.
 */
import type { ChatMessageView } from '../shared/views';
import { Automod } from '../electron/automod/automod';
import { benchAutomodSettings } from './lib/automod-rules';
import { raidLine, raidSenders, seededRandom } from './lib/raid-chat';
import { figures as stormFigures, runStorm } from './chat-storm';
import { inRounds, STORM_ROUNDS } from './lib/storm-rounds';
import { quantile, round } from './lib/stats';
import { reasonOf, unmeasured } from './lib/bench-line';
import { APP_NODE_MAJOR, onAppNode, onAppNodeAlready } from './lib/app-node';
import type { BenchFigure, BenchResult } from './types';

const note = (line: string): void => console.error(`automod: ${line}`);
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

const WITH_RULES = 'with auto-moderation on';
/** Set in the child that judges the corpus on the app's Node. */
const CHILD_ENV = 'GREENROOM_AUTOMOD_BENCH_CHILD';
const PROCESSES = 3;

/**
 * What `run` gives, printed as NaN with the reason when the module cannot run (bench/run.ts): the rule engine's own
 * figure, then every figure of the chat storm (its targets, its budget per message) with the rules on, read over the
 * rounds as the storm's are (the worst round; the counts summed).
 */
export const figures: BenchFigure[] = [
  { name: 'automod-per-message-us', unit: 'µs', target: { op: '<=', value: 50 } },
  ...stormFigures.map((figure) => ({ ...figure, unit: figure.unit ? `${figure.unit} ${WITH_RULES}` : WITH_RULES })),
];

export async function run(): Promise<BenchResult[]> {
  let perMessage: BenchResult;
  try {
    perMessage = judgedOnAppNode();
  } catch (error) {
    // Where the app's Node cannot be had, this figure says why and the storm still runs.
    note(`the rule engine could not be measured: ${error instanceof Error ? error.message : String(error)}`);
    perMessage = unmeasured('automod', figures.slice(0, 1), reasonOf(error))[0]!;
  }
  // The same rules in the whole app during the 400 msg/s storm: the storm's figures must hold with them on.
  let storm: BenchResult[];
  try {
    storm = await inRounds(STORM_ROUNDS, () => runStorm({ automod: benchAutomodSettings() }), note);
  } catch (error) {
    // The rule engine's own figure stands; the storm's say why they are missing.
    note(`the storm could not run: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    return [perMessage, ...unmeasured('automod', figures.slice(1), reasonOf(error))];
  }
  return [
    perMessage,
    ...figures.slice(1).map((figure) => ({ ...storm.find((r) => r.name === figure.name)!, ...figure })),
  ];
}

/**
 * `judgeCorpus` in `PROCESSES` fresh processes on the app's Node: the p99 of all their judgements together, so no
 * process's run is left out; each process's own p99 goes to stderr.
 */
function judgedOnAppNode(): BenchResult {
  const runs = Array.from({ length: PROCESSES }, () =>
    onAppNode<JudgedCorpus>(import.meta.url, CHILD_ENV, 'judging the corpus'),
  );
  note(`p99 by process: ${runs.map((r) => round(quantile(r.timesUs, 0.99), 2)).join(', ')} µs`);
  return {
    name: 'automod-per-message-us',
    value: round(
      quantile(
        runs.flatMap((r) => r.timesUs),
        0.99,
      ),
      2,
    ),
    unit: 'µs',
    target: { op: '<=', value: 50 },
  };
}

/** What one process's judging of the corpus gives back: each message's time. */
interface JudgedCorpus {
  timesUs: number[];
}

function judgeCorpus(): JudgedCorpus {
  const messages = corpus();
  const mod = new Automod(benchAutomodSettings());
  if (mod.refusedTerms().length > 0) {
    throw new Error(`the bench's regexes were refused: ${JSON.stringify(mod.refusedTerms())}`);
  }
  // Warm-up on a separate copy of the rules, so the JIT has compiled the path the measured run takes.
  const warm = new Automod(benchAutomodSettings());
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
    `automod: ${messages.length} messages, ${matched} matched a rule, on Node ${process.versions.node}; ` +
      `p50 ${round(quantile([...times], 0.5), 2)} µs`,
  );
  return { timesUs: Array.from(times, (t) => round(t, 2)) };
}

if (process.env[CHILD_ENV] === '1') {
  if (!onAppNodeAlready()) {
    throw new Error(`judging the corpus needs Node ${APP_NODE_MAJOR}, this is ${process.versions.node}`);
  }
  console.log(JSON.stringify(judgeCorpus()));
}
