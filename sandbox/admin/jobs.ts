/**
 * Background jobs of the admin API: rate-limited triggers and scenarios, spaced on real (unref'd) timers so
 * a UI watching the sandbox sees activity arrive over time. The admin API answers at once with a job id;
 * jobs can be listed and stopped. Each sandbox owns one runner (no module state).
 */
import { toRfc3339 } from '../../electron/core/clock';
import type { Clock } from '../../electron/core/clock';

/** A rate-spaced trigger or a scenario. */
export type JobKind = 'trigger' | 'scenario';
/** Where a job is in its life. */
export type JobState = 'running' | 'done' | 'stopped' | 'failed';

/** What one step of a job did and when the next should run. */
export interface JobStepResult {
  /** Events the step emitted. */
  fired: number;
  /** Milliseconds until the next step, or null when the job is finished. */
  nextDelayMs: number | null;
}

/** What to run: a named sequence of steps, each deciding when the next runs. */
export interface JobSpec {
  kind: JobKind;
  /** The event type or scenario name. */
  name: string;
  /** Steps planned in total, or null for an endless job. */
  total: number | null;
  /** Runs step `index` (0-based). A thrown error fails the job. */
  step(index: number): JobStepResult;
}

/** A job as `GET /jobs` shows it. */
export interface JobInfo {
  job_id: string;
  kind: JobKind;
  name: string;
  state: JobState;
  steps_done: number;
  steps_total: number | null;
  fired: number;
  started_at: string;
  ended_at: string | null;
  error: string | null;
}

interface Job {
  id: string;
  spec: JobSpec;
  state: JobState;
  stepsDone: number;
  fired: number;
  startedAtMs: number;
  endedAtMs: number | null;
  error: string | null;
  timer: NodeJS.Timeout | null;
}

/** Finished jobs kept for `GET /jobs`; older ones are forgotten. */
const FINISHED_KEPT = 100;

/** Runs, lists and stops a sandbox's background jobs. */
export class JobRunner {
  readonly #clock: Clock;
  readonly #log: (line: string) => void;
  readonly #jobs = new Map<string, Job>();
  #nextId = 1;

  constructor(clock: Clock, log: (line: string) => void) {
    this.#clock = clock;
    this.#log = log;
  }

  /**
   * Starts a job. Its first step runs now, synchronously, so bad input fails the request that started it
   * (the error propagates and no job is kept); later steps run on the timer.
   */
  start(spec: JobSpec): JobInfo {
    const startedAtMs = this.#clock.now();
    const first = spec.step(0);
    const job: Job = {
      id: `job_${this.#nextId++}`,
      spec,
      state: 'running',
      stepsDone: 0,
      fired: 0,
      startedAtMs,
      endedAtMs: null,
      error: null,
      timer: null,
    };
    this.#jobs.set(job.id, job);
    this.#advance(job, first);
    this.#forgetOld();
    return this.#info(job);
  }

  /** Stops a running job; returns its final info, or undefined for an unknown id. */
  stop(id: string): JobInfo | undefined {
    const job = this.#jobs.get(id);
    if (!job) {
      return undefined;
    }
    if (job.state === 'running') {
      this.#finish(job, 'stopped');
    }
    return this.#info(job);
  }

  /** Stops every running job (the sandbox is closing). */
  stopAll(): void {
    for (const job of this.#jobs.values()) {
      if (job.state === 'running') {
        this.#finish(job, 'stopped');
      }
    }
  }

  get(id: string): JobInfo | undefined {
    const job = this.#jobs.get(id);
    return job ? this.#info(job) : undefined;
  }

  list(): JobInfo[] {
    return [...this.#jobs.values()].map((job) => this.#info(job));
  }

  runningCount(): number {
    return [...this.#jobs.values()].filter((job) => job.state === 'running').length;
  }

  #run(job: Job): void {
    job.timer = null;
    if (job.state !== 'running') {
      return;
    }
    let result: JobStepResult;
    try {
      result = job.spec.step(job.stepsDone);
    } catch (error) {
      job.error = error instanceof Error ? error.message : String(error);
      this.#log(`sandbox: job ${job.id} (${job.spec.name}) failed: ${job.error}`);
      this.#finish(job, 'failed');
      return;
    }
    this.#advance(job, result);
  }

  #advance(job: Job, result: JobStepResult): void {
    job.stepsDone += 1;
    job.fired += result.fired;
    if (result.nextDelayMs === null) {
      this.#finish(job, 'done');
      return;
    }
    // Unref'd: a forgotten job must never keep the process (or a test worker) alive.
    job.timer = setTimeout(() => this.#run(job), Math.max(0, result.nextDelayMs));
    job.timer.unref();
  }

  #finish(job: Job, state: JobState): void {
    if (job.timer) {
      clearTimeout(job.timer);
    }
    job.timer = null;
    job.state = state;
    job.endedAtMs = this.#clock.now();
  }

  #forgetOld(): void {
    const finished = [...this.#jobs.values()].filter((job) => job.state !== 'running');
    for (const job of finished.slice(0, Math.max(0, finished.length - FINISHED_KEPT))) {
      this.#jobs.delete(job.id);
    }
  }

  #info(job: Job): JobInfo {
    return {
      job_id: job.id,
      kind: job.spec.kind,
      name: job.spec.name,
      state: job.state,
      steps_done: job.stepsDone,
      steps_total: job.spec.total,
      fired: job.fired,
      started_at: toRfc3339(job.startedAtMs),
      ended_at: job.endedAtMs === null ? null : toRfc3339(job.endedAtMs),
      error: job.error,
    };
  }
}
