import type { SandboxContext } from '../context';
import type { Router } from '../http/router';

// STUB: to be implemented.
export function registerOAuthRoutes(router: Router, ctx: SandboxContext): void {
  void router;
  void ctx;
}

// STUB: to be implemented.
export function registerLegacyIntrospectRoute(router: Router, ctx: SandboxContext): void {
  void router;
  void ctx;
}
