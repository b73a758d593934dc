/**
 * OBS in the control room, as the panel sees it: the connection to OBS's websocket, what OBS is doing
 * (streaming, recording, frames, disk), its scenes, and the warnings that need Kick's side and OBS's side
 * together. Main owns the connection (electron/obs/); the panel only reads these views and asks for changes.
 * The OBS password never appears here: main keeps it in the SecretStore and tells the panel only that
 * there is one (docs/obs.md#connecting-to-obs).
 */
import { z } from 'zod';

/** OBS's own default for its websocket server (Tools → WebSocket Server Settings). */
export const OBS_DEFAULT_HOST = '127.0.0.1';
export const OBS_DEFAULT_PORT = 4455;
/** Longest OBS websocket password Greenroom keeps; OBS itself generates 16 characters. */
export const OBS_PASSWORD_MAX = 200;
/** OBS scene and source names: OBS sets no limit, Greenroom keeps one so a setting stays small. */
export const OBS_NAME_MAX = 200;

/** How Greenroom reaches OBS, as saved (the password apart, in the SecretStore). */
export interface ObsConnectionSettings {
  /** Off until the streamer saves a connection: "not set up". */
  enabled: boolean;
  host: string;
  port: number;
}

export const OBS_CONNECTION_DEFAULTS: ObsConnectionSettings = {
  enabled: false,
  host: OBS_DEFAULT_HOST,
  port: OBS_DEFAULT_PORT,
};

/** What the settings view shows of the OBS connection: never the password, only whether one is kept. */
export interface ObsConnectionSettingsView extends ObsConnectionSettings {
  hasPassword: boolean;
}

/** `obs:save-connection`'s argument: `password` absent keeps the saved one, `''` forgets it. */
export const obsConnectionSaveSchema = z.strictObject({
  enabled: z.boolean(),
  host: z
    .string()
    .trim()
    .min(1, 'host: enter the address of the computer running OBS, such as 127.0.0.1')
    .max(253, 'host: must be at most 253 characters')
    .regex(/^[A-Za-z0-9.:[\]-]+$/, 'host: use a name or an IP address, such as 127.0.0.1, without http:// or a port'),
  port: z
    .int('port: must be a whole number')
    .min(1, 'port: must be between 1 and 65535')
    .max(65535, 'port: must be between 1 and 65535'),
  password: z.string().max(OBS_PASSWORD_MAX, `password: must be at most ${OBS_PASSWORD_MAX} characters`).optional(),
});
export type ObsConnectionSave = z.infer<typeof obsConnectionSaveSchema>;

/**
 * The connection, in the states the streamer is told about (docs/obs.md#connection-states):
 * - `not-set-up`: no connection saved;
 * - `connecting`: a connect is under way (`attempt` counts the tries since the last success);
 * - `connected`: OBS answered and accepted the password;
 * - `wrong-password`: OBS refused the password (it asks for one and the saved one is wrong or missing);
 *   Greenroom does not retry until the connection is saved again;
 * - `unreachable`: nothing answered at the address, or OBS closed; retried with backoff at `nextTryAt`.
 */
export type ObsConnectionState =
  | { kind: 'not-set-up' }
  | { kind: 'connecting'; attempt: number }
  | { kind: 'connected'; obsVersion: string; websocketVersion: string; since: number }
  | { kind: 'wrong-password' }
  | { kind: 'unreachable'; since: number; nextTryAt: number | null; detail: string };

/** One OBS output (the stream or the recording) as last read. */
export interface ObsOutputView {
  active: boolean;
  /** The stream only: OBS lost the connection to the server and is trying again. */
  reconnecting: boolean;
  /** The recording only. */
  paused: boolean;
  durationMs: number;
  bytes: number;
  /** Kilobits a second over the last reading interval; null until two readings exist or while inactive. */
  bitrateKbps: number | null;
}

/** What OBS reported at `at` (the panel says how old it is when it stops moving). */
export interface ObsStatsView {
  at: number;
  stream: ObsOutputView;
  record: ObsOutputView;
  /**
   * Frames the stream output dropped (network: the upload cannot keep up) out of those it sent, since the
   * stream started, and the share in the last 30 seconds.
   */
  droppedFrames: number;
  totalFrames: number;
  droppedPctRecent: number | null;
  /** Frames OBS could not render in time (lagged: the computer cannot keep up) out of those it rendered. */
  laggedFrames: number;
  renderedFrames: number;
  fps: number;
  cpuPct: number;
  memoryMb: number;
  /** Free disk where OBS records, in MiB; null when OBS does not say. */
  freeDiskMb: number | null;
}

/** A scene's source as the panel lists it, for the visibility toggles. */
export interface ObsSourceView {
  sceneItemId: number;
  name: string;
  enabled: boolean;
}

export interface ObsScenesView {
  current: string | null;
  scenes: string[];
  /** The current scene's sources, top of OBS's list first. */
  sources: ObsSourceView[];
  /** Main sends at most 500 of each: how many more scenes and sources OBS has, when it has more. */
  moreScenes?: number;
  moreSources?: number;
}

/** The warnings that need both sides (docs/obs.md#stream-health-warnings). */
export const STREAM_WARNING_KINDS = [
  'dropped-frames',
  'obs-live-kick-offline',
  'kick-live-obs-off',
  'disk-low',
] as const;
export type StreamWarningKind = (typeof STREAM_WARNING_KINDS)[number];

export interface StreamWarningView {
  kind: StreamWarningKind;
  /** When the condition began; the warning is shown once per episode, from when it held long enough. */
  since: number;
  /** One line in the streamer's words, with the fix. */
  line: string;
}

/** Everything the panel shows about OBS; pushed as `obs:changed`. */
export interface ObsView {
  connection: ObsConnectionState;
  /** Null until connected and read once; kept (with its `at`) after the connection drops. */
  stats: ObsStatsView | null;
  scenes: ObsScenesView | null;
  warnings: StreamWarningView[];
  /** Whether this OBS can add browser sources (Debian's build cannot); null until known. */
  browserSource: boolean | null;
}

export const OBS_VIEW_NOT_SET_UP: ObsView = {
  connection: { kind: 'not-set-up' },
  stats: null,
  scenes: null,
  warnings: [],
  browserSource: null,
};

/** "Set up OBS for Kick": what was done, so the panel can say it in one line (docs/obs.md#set-up-obs-for-kick). */
export interface ObsSetupResult {
  /** Kick's server and key were written into OBS's stream settings and read back the same. */
  streamSettings: 'written' | 'already-set';
  /** Overlays added to the scene as browser sources, and those already there. */
  added: string[];
  skipped: string[];
  /** Overlays whose browser source held an old address (a regenerated key), now pointed at the current one. */
  updated: string[];
  /** OBS has no browser source: each overlay's name and URL, to add by hand. */
  addByHand: { name: string; url: string }[];
}
