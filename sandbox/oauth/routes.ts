/**
 * The sandbox's id.kick.com ([reference §2](../../docs/kick-wire-reference.md#2-oauth)): authorize with consent, the token endpoint, revocation and
 * introspection, plus the deprecated introspection path that lives on api.kick.com. Per-sandbox OAuth
 * bookkeeping (pending consents, token lineage) is created here and handed to the handlers.
 */
import type { SandboxContext } from '../context';
import type { Router } from '../http/router';
import { registerAuthorizeRoutes } from './authorize';
import { GrantLedger } from './grant-ledger';
import { handleIntrospect, handleLegacyIntrospect, INTROSPECT_PATH, LEGACY_INTROSPECT_PATH } from './introspect';
import { PendingConsents } from './pending-consents';
import { handleRevokeRequest, REVOKE_PATH } from './revoke';
import { handleTokenRequest, TOKEN_PATH } from './token-endpoint';

/** Registers the OAuth server's routes on the auth host's router. */
export function registerOAuthRoutes(router: Router, ctx: SandboxContext): void {
  const ledger = new GrantLedger(ctx.state);
  registerAuthorizeRoutes(router, ctx, new PendingConsents(ctx.state));
  router.post(TOKEN_PATH, (req) => handleTokenRequest(ctx, ledger, req));
  router.post(REVOKE_PATH, (req) => handleRevokeRequest(ctx, ledger, req));
  router.post(INTROSPECT_PATH, (req) => handleIntrospect(ctx, req));
}

/** Registers the deprecated `POST /public/v1/token/introspect` on the API host's router. */
export function registerLegacyIntrospectRoute(router: Router, ctx: SandboxContext): void {
  router.post(LEGACY_INTROSPECT_PATH, (req) => handleLegacyIntrospect(ctx, req));
}
