import type { SandboxContext } from '../context';
import type { Router } from '../http/router';

// STUB: to be implemented.
export function registerEventSubscriptionRoutes(router: Router, ctx: SandboxContext): void {
  void router;
  void ctx;
}
