/**
 * `GET /public/v1/users` ([reference §3.1](../../docs/kick-wire-reference.md#31-users)): users by id, or the token's own user when no id is given, which
 * is how a client learns who signed in (introspection carries no user id, [§2.3](../../docs/kick-wire-reference.md#23-token-introspection)).
 */
import type { KickUser } from '../../shared/kick/resources';
import type { SandboxContext } from '../context';
import type { Router } from '../http/router';
import type { SandboxUser } from '../state';
import { authenticate } from './auth-guard';
import { queryInts } from './params';
import { fail, ok } from './respond';

/** Registers the users route. */
export function registerUserRoutes(router: Router, ctx: SandboxContext): void {
  router.get('/public/v1/users', (req) => {
    // App tokens may look users up by id ([LIB], [reference §3.0](../../docs/kick-wire-reference.md#30-summary)); user tokens need `user:read`.
    const token = authenticate(ctx.state, req, { token: 'any', anyScope: ['user:read'] });
    const ids = [...new Set(queryInts(req, 'id', { min: 1 }))];
    if (ids.length === 0) {
      // "No id" means "me"; an app token has no "me". Kick answers a missing user identity with 403
      // ("User not authenticated", KickDevDocs #277), so the sandbox does too.
      if (token.userId === null) {
        fail(403, 'User not authenticated: give id, or use a user access token');
      }
      ids.push(token.userId);
    }
    const users = ids.map((id) => ctx.state.user(id)).filter((user): user is SandboxUser => user !== undefined);
    return ok(users.map((user) => toKickUser(user, token.userId)));
  });
}

/** `email` is sensitive: only the token's own user sees theirs ([reference §3.1](../../docs/kick-wire-reference.md#31-users) [ONE]). */
function toKickUser(user: SandboxUser, selfUserId: number | null): KickUser {
  return {
    user_id: user.userId,
    name: user.username,
    email: user.userId === selfUserId ? user.email : '',
    profile_picture: user.profilePicture,
  };
}
