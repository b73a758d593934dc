/**
 * Named scenarios: realistic bursts of activity (a chat storm, a sub train, a wave of redemptions or bans,
 * a raid), another developer's app sending its own channel's signed deliveries to this app
 * (`foreign-channel`), and the endless gentle `simulated-activity` Greenroom's embedded sandbox runs. They
 * run as jobs on real timers, or all at once with `immediate`.
 */
import type { SandboxContext } from './context';
import { requireChannel, TriggerInputError } from './admin/generate-context';
import { foreignChannelSteps } from './admin/foreign-channel';
import type { JobInfo, JobRunner } from './admin/jobs';
import { defaultRng, type Rng } from './admin/random';
import {
  banWaveSteps,
  chatStormSteps,
  raidSteps,
  redemptionWaveSteps,
  type ScenarioInput,
  type ScenarioStep,
  simulatedActivitySteps,
  subTrainSteps,
} from './admin/scenario-steps';
import { triggerEvent } from './triggers';
import { STREAMER_USER_ID } from './world';

/** The scenarios `POST /scenarios/:name` and `npm run sandbox -- scenario` accept. */
export const SCENARIO_NAMES = [
  'chat-storm',
  'sub-train',
  'redemption-wave',
  'ban-wave',
  'raid',
  'foreign-channel',
  'simulated-activity',
] as const;

/** One of {@link SCENARIO_NAMES}. */
export type ScenarioName = (typeof SCENARIO_NAMES)[number];

/** Narrows a string to a scenario name. */
export function isScenarioName(value: string): value is ScenarioName {
  return (SCENARIO_NAMES as readonly string[]).includes(value);
}

interface ScenarioDefinition {
  description: string;
  /** Endless scenarios run until stopped and cannot run `immediate`. */
  endless: boolean;
  steps(input: ScenarioInput): Iterable<ScenarioStep>;
}

const SCENARIOS: Record<ScenarioName, ScenarioDefinition> = {
  'chat-storm': {
    description: 'Many chat messages fast, some with emotes or replies',
    endless: false,
    steps: chatStormSteps,
  },
  'sub-train': { description: 'New subs, renewals and gifted subs in a row', endless: false, steps: subTrainSteps },
  'redemption-wave': {
    description: 'Many pending redemptions across several rewards',
    endless: false,
    steps: redemptionWaveSteps,
  },
  'ban-wave': {
    description: 'Spam from several viewers, each banned or timed out',
    endless: false,
    steps: banWaveSteps,
  },
  raid: {
    description: 'Another streamer raids: a host on the live socket, follows and a chat burst',
    endless: false,
    steps: raidSteps,
  },
  'foreign-channel': {
    description: "Another developer's app sends its own channel's signed follow and chat to this app's webhook URL",
    endless: false,
    steps: foreignChannelSteps,
  },
  'simulated-activity': {
    description: 'Gentle endless activity: chat every few seconds, an occasional follow, sub, KICKs or redemption',
    endless: true,
    steps: simulatedActivitySteps,
  },
};

/** Name → description, for `GET /` and `--help`. */
export function describeScenarios(): Record<ScenarioName, string> {
  return Object.fromEntries(SCENARIO_NAMES.map((name) => [name, SCENARIOS[name].description])) as Record<
    ScenarioName,
    string
  >;
}

/** Where to run a scenario and whether to run it all at once. */
export interface ScenarioOptions {
  broadcasterUserId?: number;
  /** Fire every step now instead of spacing them in real time (finite scenarios only). */
  immediate?: boolean;
  rng?: Rng;
}

/** What starting a scenario did. */
export interface ScenarioStarted {
  scenario: ScenarioName;
  /** Events emitted so far (all of them when `immediate`). */
  fired: number;
  /** The background job, absent when `immediate`. */
  job?: JobInfo;
}

/**
 * Runs one step. A step the state refuses (every viewer banned, no reward left to redeem) is logged and
 * skipped, so a long scenario does not die on one refusal.
 */
function runStep(ctx: SandboxContext, step: ScenarioStep, broadcasterUserId: number, rng: Rng): number {
  try {
    step.action?.(ctx);
    if (!step.type) {
      return 0;
    }
    const where = step.broadcasterUserId ?? broadcasterUserId;
    return triggerEvent(ctx, step.type, { ...step.options, broadcasterUserId: where, rng }).length;
  } catch (error) {
    if (!(error instanceof TriggerInputError)) {
      throw error;
    }
    ctx.log(`sandbox: scenario step ${step.type ?? 'action'} skipped: ${error.message}`);
    return 0;
  }
}

/** Starts a scenario (or runs it to the end at once with `immediate`). Throws TriggerInputError on bad input. */
export function startScenario(
  ctx: SandboxContext,
  jobs: JobRunner,
  name: string,
  options: ScenarioOptions = {},
): ScenarioStarted {
  if (!isScenarioName(name)) {
    throw new TriggerInputError(`scenario: must be one of ${SCENARIO_NAMES.join(', ')}`);
  }
  const definition = SCENARIOS[name];
  const broadcasterUserId = options.broadcasterUserId ?? STREAMER_USER_ID;
  requireChannel(ctx.state, broadcasterUserId);
  const rng = options.rng ?? defaultRng;
  const built = definition.steps({ ctx, broadcasterUserId, rng });
  // Finite scenarios are built up front so the job can report its total; endless ones stay lazy.
  const list = definition.endless ? null : [...built];
  const steps = (list ?? built)[Symbol.iterator]();

  if (options.immediate) {
    if (definition.endless) {
      throw new TriggerInputError(`immediate: ${name} never ends; start it without immediate`);
    }
    let fired = 0;
    for (let next = steps.next(); !next.done; next = steps.next()) {
      fired += runStep(ctx, next.value, broadcasterUserId, rng);
    }
    return { scenario: name, fired };
  }

  // One step of lookahead: the step after the current one says how long to wait.
  let upcoming = steps.next();
  const job = jobs.start({
    kind: 'scenario',
    name,
    total: list?.length ?? null,
    step: () => {
      if (upcoming.done) {
        return { fired: 0, nextDelayMs: null };
      }
      const fired = runStep(ctx, upcoming.value, broadcasterUserId, rng);
      upcoming = steps.next();
      return { fired, nextDelayMs: upcoming.done ? null : upcoming.value.waitMs };
    },
  });
  return { scenario: name, fired: job.fired, job };
}
