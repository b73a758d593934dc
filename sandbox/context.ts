import type { KeyObject } from 'node:crypto';
import type { AdjustableClock } from '../electron/core/clock';
import type { FrameLog } from './live-socket/frame-log';
import type { LiveHub } from './live-socket/live-hub';
import type { SandboxApp, SandboxState } from './state';

/** The signing key Kick uses for webhooks; `publicKeyPem` is what `GET /public/v1/public-key` serves. */
export interface SandboxKeys {
  privateKey: KeyObject;
  publicKeyPem: string;
}

export interface SandboxUrls {
  /** Stands in for https://id.kick.com */
  auth: string;
  /** Stands in for https://api.kick.com */
  api: string;
  /** The sandbox's own control API (Kick's dashboard and the event triggers). */
  admin: string;
  /** Stands in for Kick's RTMP ingest: `rtmp://127.0.0.1:<port>/app`. */
  rtmp: string;
  /** Stands in for Kick's live socket (Pusher's `wss://ws-us2.pusher.com` and Kick's Centrifugo host). */
  socket: string;
  /** Stands in for `https://web.kick.com` (discovery) and `https://kick.com/api/v2` (channel lookup). */
  web: string;
}

/** Everything route modules need, passed explicitly (no module state). */
export interface SandboxContext {
  state: SandboxState;
  clock: AdjustableClock;
  keys: SandboxKeys;
  /** The app the sandbox was started for (more can be registered through the admin API). */
  app: SandboxApp;
  /**
   * When set, `GET /oauth/authorize` approves at once as this user instead of showing the consent page,
   * for tests and tools that cannot click.
   */
  autoApproveUserId: number | null;
  /** Filled in once the servers listen. */
  urls: SandboxUrls;
  /** The bearer token the admin API requires (admin/admin-guard.ts). */
  adminToken: string;
  /** Kick's live socket: its sessions, what discovery offers, drops (live-socket/). */
  live: LiveHub;
  /** The frames the live socket sent, with when (live-socket/frame-log.ts). */
  liveFrames: FrameLog;
  log: (line: string) => void;
}
