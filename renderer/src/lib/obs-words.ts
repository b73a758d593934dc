/**
 * OBS in a streamer's words: the connection state with its fix, and the figures OBS reports (durations,
 * bitrate, dropped and lagged frames, free disk) as the strip and Health show them
 * ([connection states](../../../docs/obs.md#connection-states)). OBS's own names (websocket, request
 * codes) stay behind "details". Pure.
 */
import type { ErrorValue } from '../../../shared/errors';
import type { ObsConnectionState, ObsOutputView, ObsStatsView } from '../../../shared/obs';
import { formatNumber } from '../../../shared/plural';
import { explainError, type ShownError } from './error-text';

/** One connection state as the streamer reads it: what is true, and what to do about it. */
export interface ObsConnectionWords {
  /** Short, for the strip: "OBS not reachable". */
  short: string;
  /** The line Health leads with. */
  title: string;
  /** What to do, or null when nothing needs doing. */
  fix: string | null;
  tone: 'ok' | 'busy' | 'bad' | 'quiet';
}

/** Where OBS's websocket server is switched on and its password shown, in OBS's own menu words. */
export const OBS_SERVER_SETTINGS = 'Tools → WebSocket Server Settings';
export const OBS_CONNECT_INFO = `${OBS_SERVER_SETTINGS} → Show Connect Info`;

/** The connection state in a streamer's words, with its fix; `now` says when the next try is. */
export function obsConnectionWords(state: ObsConnectionState, now: number): ObsConnectionWords {
  switch (state.kind) {
    case 'not-set-up':
      return {
        short: 'OBS not set up',
        title: 'OBS is not connected yet.',
        fix: `Connect it in Settings → OBS: in OBS, turn on ${OBS_SERVER_SETTINGS} → Enable WebSocket server, then enter its port and password here.`,
        tone: 'quiet',
      };
    case 'connecting':
      return {
        short: 'OBS connecting…',
        title: state.attempt > 1 ? `Connecting to OBS… (try ${state.attempt})` : 'Connecting to OBS…',
        fix: null,
        tone: 'busy',
      };
    case 'connected':
      return {
        short: 'OBS connected',
        title: `Connected to OBS — OBS ${state.obsVersion}, websocket ${state.websocketVersion}.`,
        fix: null,
        tone: 'ok',
      };
    case 'wrong-password':
      return {
        short: 'OBS: wrong password',
        title: 'OBS refused the password.',
        fix: `Copy it from OBS: ${OBS_CONNECT_INFO}, paste it in Settings → OBS and save.`,
        tone: 'bad',
      };
    case 'unreachable': {
      const next = state.nextTryAt === null ? '' : ` Greenroom tries again ${retryWords(state.nextTryAt - now)}.`;
      return {
        short: 'OBS not reachable',
        title: 'OBS not reachable.',
        fix: `Open OBS and enable ${OBS_SERVER_SETTINGS} → Enable WebSocket server; check the address and port in Settings → OBS.${next}`,
        tone: 'bad',
      };
    }
  }
}

/** `in 4 s` with a non-breaking space, so "s." never wraps onto a line of its own. */
function retryWords(ms: number): string {
  return ms <= 1000 ? 'now' : `in ${Math.ceil(ms / 1000)}\u00a0s`;
}

const pad = (n: number): string => String(n).padStart(2, '0');

/** `0:07`, `12:03`, `1:02:03`: how long an output has run. */
export function formatDuration(ms: number): string {
  const total = Math.max(0, Math.floor(ms / 1000));
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = total % 60;
  return h > 0 ? `${h}:${pad(m)}:${pad(s)}` : `${m}:${pad(s)}`;
}

/** `6,000 kb/s`, or null until OBS has sent two readings. */
export function bitrateWords(output: ObsOutputView): string | null {
  return output.bitrateKbps === null ? null : `${formatNumber(output.bitrateKbps)} kb/s`;
}

/** `0.4%`, `12%`: a share as the strip shows it; below 10% with one decimal, so 0.4% does not read 0%. */
export function formatPct(pct: number): string {
  const p = Math.max(0, pct);
  return p < 10 ? `${(Math.round(p * 10) / 10).toFixed(1)}%` : `${Math.round(p)}%`;
}

/** The stream's dropped frames as a share: the last 30 s when OBS has them, else since the stream began. */
export function droppedPct(stats: ObsStatsView): number | null {
  if (stats.droppedPctRecent !== null) {
    return stats.droppedPctRecent;
  }
  return stats.totalFrames > 0 ? (stats.droppedFrames / stats.totalFrames) * 100 : null;
}

/** `12 of 3,400 (0.4%)`: frames lost out of those counted. */
export function frameWords(lost: number, of: number): string {
  const share = of > 0 ? ` (${formatPct((lost / of) * 100)})` : '';
  return `${formatNumber(lost)} of ${formatNumber(of)}${share}`;
}

/** `12.4 GB free`, `830 MB free`, or "not known" when OBS does not say. */
export function diskWords(freeMb: number | null): string {
  if (freeMb === null) {
    return 'not known';
  }
  return freeMb >= 1024 ? `${(freeMb / 1024).toFixed(1)} GB free` : `${formatNumber(freeMb)} MB free`;
}

/**
 * One output's state in a line: "Streaming for 1:02:03", "Recording paused at 4:05", "Not recording".
 * `durationMs` is the time on air now (the panel counts on between readings); `stopped` says OBS stopped
 * answering, so the line says what it was doing then, not that it still is.
 */
export function outputWords(
  output: ObsOutputView,
  kind: 'stream' | 'record',
  durationMs: number = output.durationMs,
  stopped = false,
): string {
  if (!output.active) {
    return kind === 'stream' ? 'Not streaming' : 'Not recording';
  }
  const duration = formatDuration(durationMs);
  if (stopped) {
    return `Was ${kind === 'stream' ? 'streaming' : 'recording'} (${duration}) when OBS stopped answering`;
  }
  if (kind === 'stream') {
    return output.reconnecting ? `Streaming for ${duration}, reconnecting to the server` : `Streaming for ${duration}`;
  }
  return output.paused ? `Recording paused at ${duration}` : `Recording for ${duration}`;
}

/** `200.8203125` → `201 MB`: OBS's memory use as a person reads it. */
export function memoryWords(mb: number): string {
  return `${formatNumber(Math.round(mb))} MB`;
}

/**
 * A failed OBS request: Greenroom's words, and where OBS refused the request, OBS's own reason beside them
 * ("OBS said: No source was found by the name of Camera.").
 */
export function explainObsError(error: ErrorValue): ShownError {
  const shown = explainError(error);
  return error.code === 'ObsRequestFailed'
    ? { ...shown, text: `${shown.text} OBS said: ${error.message.replace(/^OBS: /, '')}` }
    : shown;
}
