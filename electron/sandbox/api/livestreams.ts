import type { SandboxContext } from '../context';
import type { Router } from '../http/router';

// STUB: to be implemented.
export function registerLivestreamRoutes(router: Router, ctx: SandboxContext): void {
  void router;
  void ctx;
}
