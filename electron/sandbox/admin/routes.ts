import type { SandboxContext } from '../context';
import type { Router } from '../http/router';
import type { DeliveryEngine } from '../webhooks/delivery';

// STUB: to be implemented.
export function registerAdminRoutes(router: Router, ctx: SandboxContext, delivery: DeliveryEngine): void {
  void router;
  void ctx;
  void delivery;
}
