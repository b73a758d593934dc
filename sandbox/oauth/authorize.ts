/**
 * `GET /oauth/authorize` and the consent page's `POST /oauth/authorize/decision` ([reference §2.1](../../docs/kick-wire-reference.md#21-authorize)). With
 * `ctx.autoApproveUserId` set the request is approved at once as that user (tests and tools that cannot
 * click); otherwise the consent page asks who signs in and whether to approve.
 */
import { createOpaqueToken } from '../../electron/core/ids';
import type { SandboxContext } from '../context';
import type { Router } from '../http/router';
import type { SandboxRequest, SandboxResponse } from '../http/types';
import type { SandboxAuthCode, SandboxState } from '../state';
import { type AuthorizeRequest, parseAuthorizeRequest } from './authorize-request';
import { consentUsers, DECISION_FIELDS, renderConsentPage } from './consent-page';
import { readFormBody, requiredParam } from './form';
import { oauthFail, redirectError, redirectTo } from './oauth-errors';
import type { PendingConsents } from './pending-consents';
import { PKCE_METHOD } from './pkce';
import { appendQueryParams } from './redirect';

/** Where Kick's authorize page lives on id.kick.com. */
export const AUTHORIZE_PATH = '/oauth/authorize';
/** Where the consent page posts Approve / Deny (sandbox only; Kick's own form is not documented). */
export const DECISION_PATH = '/oauth/authorize/decision';

/** A user id as the consent form posts it: a plain positive integer. */
const USER_ID_PATTERN = /^[1-9]\d{0,15}$/;

/** Registers authorize and the consent decision on the auth host's router. */
export function registerAuthorizeRoutes(router: Router, ctx: SandboxContext, pending: PendingConsents): void {
  router.get(AUTHORIZE_PATH, (req) => authorize(ctx, pending, req));
  router.post(DECISION_PATH, (req) => decide(ctx, pending, req));
}

function authorize(ctx: SandboxContext, pending: PendingConsents, req: SandboxRequest): SandboxResponse {
  // Kick's rewrite works on the URL text, so the quirk is applied to the raw query, not a re-serialised one.
  const request = parseAuthorizeRequest(ctx.state, req.rawQuery);
  if (ctx.autoApproveUserId !== null) {
    return approve(ctx.state, request, ctx.autoApproveUserId);
  }
  const requestId = pending.add(request);
  return renderConsentPage({
    appName: request.app.name,
    redirectUri: request.redirectUri,
    scopes: request.scopes,
    users: consentUsers(ctx.state),
    requestId,
    decisionPath: DECISION_PATH,
  });
}

function decide(ctx: SandboxContext, pending: PendingConsents, req: SandboxRequest): SandboxResponse {
  const form = readFormBody(req);
  const requestId = requiredParam(form, DECISION_FIELDS.requestId);
  const request = pending.get(requestId);
  if (!request) {
    oauthFail(`${DECISION_FIELDS.requestId}: unknown, already decided or expired authorization request`);
  }

  const decision = requiredParam(form, DECISION_FIELDS.decision);
  if (decision === 'deny') {
    pending.delete(requestId);
    return redirectError(
      request.redirectUri,
      'access_denied',
      'The user denied the authorization request',
      request.state,
    );
  }
  if (decision !== 'approve') {
    oauthFail(`${DECISION_FIELDS.decision}: must be approve or deny`);
  }

  const rawUserId = requiredParam(form, DECISION_FIELDS.userId);
  const userId = USER_ID_PATTERN.test(rawUserId) ? Number(rawUserId) : NaN;
  if (!ctx.state.user(userId)) {
    oauthFail(`${DECISION_FIELDS.userId}: not a sandbox user`);
  }
  pending.delete(requestId);
  return approve(ctx.state, request, userId);
}

/** Issues a code for the user and redirects to the client with `code` and `state`. */
function approve(state: SandboxState, request: AuthorizeRequest, userId: number): SandboxResponse {
  const code = issueAuthCode(state, request, userId);
  return redirectTo(appendQueryParams(request.redirectUri, { code: code.code, state: request.state }));
}

/** A single-use code that remembers everything the token endpoint must check against. */
export function issueAuthCode(state: SandboxState, request: AuthorizeRequest, userId: number): SandboxAuthCode {
  const record: SandboxAuthCode = {
    code: createOpaqueToken(),
    clientId: request.app.clientId,
    userId,
    redirectUri: request.redirectUri,
    scopes: [...request.scopes],
    codeChallenge: request.codeChallenge,
    codeChallengeMethod: PKCE_METHOD,
    expiresAtMs: state.now() + state.lifetimes.codeSeconds * 1000,
    used: false,
  };
  state.authCodes.set(record.code, record);
  return record;
}
