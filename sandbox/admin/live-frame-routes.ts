/**
 * `GET /live-socket/frames` ([docs](../../docs/sandbox.md#live-socket-triggers)): the frames the live socket sent,
 * newest last, each with when it went out. The socket's side of what `GET /deliveries` is for the webhooks:
 * the chat storm benchmark times a chat line from its frame.
 */
import type { SandboxContext } from '../context';
import type { Router } from '../http/router';
import { adminOk, adminRoute, queryLimit } from './admin-http';

const FRAMES_LIMIT_DEFAULT = 100;

export function registerLiveFrameAdminRoutes(router: Router, ctx: SandboxContext): void {
  router.get(
    '/live-socket/frames',
    adminRoute((req) => {
      const limit = queryLimit(req, FRAMES_LIMIT_DEFAULT, ctx.liveFrames.keep);
      return adminOk({
        frames: ctx.liveFrames.last(limit).map((f) => ({
          event: f.event,
          channel: f.channel,
          id: f.id,
          sent_at_ms: f.sentAtMs,
          sockets: f.sockets,
        })),
      });
    }),
  );
}
