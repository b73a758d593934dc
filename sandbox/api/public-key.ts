/**
 * `GET /public/v1/public-key` ([reference §3.9](../../docs/kick-wire-reference.md#39-public-key)): the PEM of the key the sandbox signs webhooks with. No
 * token is needed, as on Kick.
 */
import type { SandboxContext } from '../context';
import type { Router } from '../http/router';
import { ok } from './respond';

/** Registers the public-key route. */
export function registerPublicKeyRoutes(router: Router, ctx: SandboxContext): void {
  router.get('/public/v1/public-key', () => ok({ public_key: ctx.keys.publicKeyPem }));
}
