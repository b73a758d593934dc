/**
 * The sandbox's admin API (its own loopback server): Kick's developer dashboard (apps), the clock, event
 * triggers and scenarios, kick.com-side actions (go live, redeem, chat) and inspection views. JSON in and
 * out; failures are `{error}` with a message naming the field. `npm run sandbox -- trigger …` talks to it.
 */
import type { SandboxContext } from '../context';
import type { Router } from '../http/router';
import type { DeliveryEngine } from '../webhooks/delivery';
import { adminOk, adminRoute } from './admin-http';
import { registerAppRoutes } from './app-routes';
import { registerChannelAdminRoutes } from './channel-routes';
import { registerControlRoutes } from './control-routes';
import { describeForAdmin } from './describe';
import { JobRunner } from './jobs';
import { registerLiveFrameAdminRoutes } from './live-frame-routes';
import { registerLiveRoomAdminRoutes } from './live-room-routes';
import { registerLiveSocketAdminRoutes } from './live-socket-routes';

/** What the admin API exposes in-process: its job runner, so an embedder can start or stop jobs directly. */
export interface AdminControl {
  jobs: JobRunner;
  /** Stops every background job (trigger rates, scenarios, simulated activity). */
  stopJobs(): void;
}

/** Registers every admin route on the admin server's router; returns the in-process controls. */
export function registerAdminRoutes(router: Router, ctx: SandboxContext, delivery: DeliveryEngine): AdminControl {
  const jobs = new JobRunner(ctx.clock, ctx.log);
  router.get(
    '/',
    adminRoute(() => adminOk(describeForAdmin(ctx, delivery, jobs))),
  );
  registerAppRoutes(router, ctx);
  registerControlRoutes(router, ctx, delivery, jobs);
  registerChannelAdminRoutes(router, ctx);
  registerLiveSocketAdminRoutes(router, ctx);
  registerLiveRoomAdminRoutes(router, ctx);
  registerLiveFrameAdminRoutes(router, ctx);
  return { jobs, stopJobs: () => jobs.stopAll() };
}
