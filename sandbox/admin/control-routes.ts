/**
 * The sandbox's control surface: move the clock, fire events (`POST /trigger/:event_type`), run scenarios,
 * list and stop background jobs, and look at or flush webhook deliveries (those made and those still held).
 */
import { toRfc3339 } from '../../electron/core/clock';
import { bodyBool } from '../api/params';
import type { SandboxContext } from '../context';
import type { Router } from '../http/router';
import type { SandboxRequest } from '../http/types';
import { describeScenarios, startScenario } from '../scenarios';
import type { SandboxEvent } from '../state';
import { fireTrigger, planTrigger, TRIGGER_LIMITS, type TriggerOptions } from '../triggers';
import type { DeliveryAttempt, DeliveryEngine } from '../webhooks/delivery';
import type { OutboxMessage } from '../webhooks/outbox';
import { adminFail, adminOk, adminRoute, bodyInt, bodyNumber, queryLimit, readAdminBody, snakeKey } from './admin-http';
import type { JobRunner } from './jobs';
import { parseOverrides } from './overrides';

/** Admin-side bounds: a year of clock travel per call, a hundred triggered events per second. */
const CLOCK_ADVANCE_MAX_SECONDS = 31_536_000;
export const TRIGGER_RATE_MAX = 100;
const DELIVERIES_LIMIT_DEFAULT = 100;
const DELIVERIES_LIMIT_MAX = 10_000;

/** An event as the admin API answers it (delivery faults named as in the trigger request). */
export function toAdminEvent(event: SandboxEvent): Record<string, unknown> {
  return {
    type: event.type,
    version: event.version,
    broadcaster_user_id: event.broadcasterUserId,
    payload: event.payload,
    delivery: event.delivery
      ? Object.fromEntries(Object.entries(event.delivery).map(([key, value]) => [snakeKey(key), value as unknown]))
      : null,
  };
}

/** A delivery attempt in snake_case, `…AtMs` times also as RFC 3339 `…_at`. */
export function toAdminAttempt(attempt: DeliveryAttempt): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(attempt)) {
    if (key.endsWith('AtMs') && typeof value === 'number') {
      out[snakeKey(key.slice(0, -2))] = toRfc3339(value);
      out[snakeKey(key)] = value;
    } else {
      out[snakeKey(key)] = value;
    }
  }
  return out;
}

/**
 * A delivery still held in the queue (webhooks running behind, a retry waiting), with the payload it will
 * carry: a test can tell which event's webhook has not gone out yet.
 */
function toAdminPending(message: Readonly<OutboxMessage>): Record<string, unknown> {
  return {
    message_id: message.messageId,
    subscription_id: message.subscriptionId,
    event_type: message.eventType,
    event_version: message.eventVersion,
    broadcaster_user_id: message.broadcasterUserId,
    event_at: toRfc3339(message.eventAtMs),
    due_at: toRfc3339(message.dueAtMs),
    due_at_ms: message.dueAtMs,
    failed_attempts: message.failedAttempts,
    payload: JSON.parse(message.body.toString('utf8')) as unknown,
  };
}

function clockAnswer(ctx: SandboxContext): Record<string, unknown> {
  const nowMs = ctx.state.now();
  return { now: toRfc3339(nowMs), now_ms: nowMs };
}

/** `duplicates` may be a count or `true` (one extra copy), as the CLI's bare `--duplicate` means. */
function readDuplicates(body: Record<string, unknown>): number | undefined {
  if (body.duplicates === true) {
    return 1;
  }
  if (body.duplicates === false) {
    return 0;
  }
  return bodyInt(body, 'duplicates', { min: 0, max: TRIGGER_LIMITS.duplicatesMax });
}

function readTrigger(req: SandboxRequest): { options: TriggerOptions; rate: number | undefined } {
  const body = readAdminBody(req);
  const rate = bodyNumber(body, 'rate', { min: 0, exclusiveMin: true, max: TRIGGER_RATE_MAX });
  const options: TriggerOptions = {
    broadcasterUserId: bodyInt(body, 'broadcaster_user_id', { min: 1 }),
    count: bodyInt(body, 'count', { min: 1, max: TRIGGER_LIMITS.countMax }),
    chatters: bodyInt(body, 'chatters', { min: 1, max: TRIGGER_LIMITS.chattersMax }),
    duplicates: readDuplicates(body),
    resendWithNewId: bodyBool(body, 'resend_with_new_id'),
    delaySeconds: bodyNumber(body, 'delay_seconds', { min: 0, max: TRIGGER_LIMITS.delaySecondsMax }),
    outOfOrder: bodyBool(body, 'out_of_order'),
    overrides: parseOverrides(body.overrides),
    // Spaced in real time, each reversed arrival must trail the next send by more than the spacing.
    outOfOrderStepSeconds: rate === undefined ? 1 : Math.ceil(1 / rate) + 1,
  };
  return { options, rate };
}

/** Registers clock, trigger, scenario, job and delivery routes. */
export function registerControlRoutes(
  router: Router,
  ctx: SandboxContext,
  delivery: DeliveryEngine,
  jobs: JobRunner,
): void {
  router.get(
    '/clock',
    adminRoute(() => adminOk(clockAnswer(ctx))),
  );

  router.post(
    '/clock/advance',
    adminRoute(async (req) => {
      const body = readAdminBody(req);
      const seconds = bodyNumber(body, 'seconds', { required: true, min: 0, max: CLOCK_ADVANCE_MAX_SECONDS })!;
      ctx.clock.advance(seconds * 1000);
      // Whatever became due (retries, late deliveries, Kick's one-day unsubscription) happens now.
      await delivery.flush();
      return adminOk({ ...clockAnswer(ctx), advanced_seconds: seconds, pending_deliveries: delivery.pendingCount() });
    }),
  );

  router.post(
    '/trigger/:event_type',
    adminRoute((req) => {
      const { options, rate } = readTrigger(req);
      const plan = planTrigger(ctx, req.params.event_type ?? '', options);
      if (rate === undefined) {
        const events: SandboxEvent[] = [];
        for (let i = 0; i < plan.count; i++) {
          events.push(...fireTrigger(ctx, plan, i));
        }
        return adminOk({ fired: events.length, events: events.map(toAdminEvent) });
      }
      const spacingMs = 1000 / rate;
      const job = jobs.start({
        kind: 'trigger',
        name: plan.type,
        total: plan.count,
        step: (index) => ({
          fired: fireTrigger(ctx, plan, index).length,
          nextDelayMs: index + 1 < plan.count ? spacingMs : null,
        }),
      });
      return adminOk({ fired: job.fired, job_id: job.job_id, job }, 202);
    }),
  );

  router.get(
    '/scenarios',
    adminRoute(() => adminOk({ scenarios: describeScenarios() })),
  );

  router.post(
    '/scenarios/:name',
    adminRoute((req) => {
      const body = readAdminBody(req);
      const started = startScenario(ctx, jobs, req.params.name ?? '', {
        broadcasterUserId: bodyInt(body, 'broadcaster_user_id', { min: 1 }),
        immediate: bodyBool(body, 'immediate'),
      });
      if (!started.job) {
        return adminOk({ scenario: started.scenario, fired: started.fired });
      }
      return adminOk(
        { scenario: started.scenario, fired: started.fired, job_id: started.job.job_id, job: started.job },
        202,
      );
    }),
  );

  router.delete(
    '/scenarios/:job_id',
    adminRoute((req) => {
      const job = jobs.stop(req.params.job_id ?? '');
      if (!job) {
        adminFail(404, `job_id: no job ${req.params.job_id}`);
      }
      return adminOk(job);
    }),
  );

  router.get(
    '/jobs',
    adminRoute(() => adminOk({ jobs: jobs.list() })),
  );

  router.get(
    '/deliveries',
    adminRoute((req) => {
      const limit = queryLimit(req, DELIVERIES_LIMIT_DEFAULT, DELIVERIES_LIMIT_MAX);
      return adminOk({
        pending: delivery.pendingCount(),
        attempts: delivery.attempts.slice(-limit).map(toAdminAttempt),
      });
    }),
  );

  router.get(
    '/deliveries/pending',
    adminRoute((req) => {
      const limit = queryLimit(req, DELIVERIES_LIMIT_DEFAULT, DELIVERIES_LIMIT_MAX);
      return adminOk({
        pending: delivery.pendingCount(),
        messages: delivery.pendingMessages().slice(0, limit).map(toAdminPending),
      });
    }),
  );

  router.post(
    '/deliveries/flush',
    adminRoute(async () => {
      await delivery.flush();
      return adminOk({ pending: delivery.pendingCount(), attempts: delivery.attempts.length });
    }),
  );
}
