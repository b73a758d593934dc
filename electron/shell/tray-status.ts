/**
 * The tray icon's state and tooltip from the app's snapshot: green when signed in and events flow, amber
 * when something needs attention (tunnel down, late deliveries, a failed subscription), grey when
 * signed out.
 */
import type { AccountView, AppMode, HealthView } from '../../shared/views';
import { plural } from '../../shared/plural';

export type TrayLevel = 'ok' | 'warn' | 'off';

export interface TrayStatus {
  level: TrayLevel;
  tooltip: string;
}

/** Describes the connection for the tray. */
export function trayStatus(state: { mode: AppMode; account: AccountView; health: HealthView }): TrayStatus {
  const where = state.mode === 'sandbox' ? ' (sandbox)' : '';
  if (!state.account.signedIn) {
    return { level: 'off', tooltip: `Greenroom${where}: not signed in` };
  }
  const who = state.account.accountLabel ?? 'Kick';
  const problem = healthProblem(state.health);
  return problem
    ? { level: 'warn', tooltip: `Greenroom${where}: ${who}, ${problem}` }
    : { level: 'ok', tooltip: `Greenroom${where}: ${who}, events flowing` };
}

function healthProblem(health: HealthView): string | null {
  if (health.tunnel.state === 'down') {
    return `tunnel down (${health.tunnel.reason})`;
  }
  if (health.tunnel.state === 'connecting') {
    return 'tunnel connecting';
  }
  const failed = health.subscriptions.filter((s) => s.state !== 'active').length;
  if (failed > 0) {
    return `${plural(failed, 'event subscription')} missing`;
  }
  if (health.lag.state === 'delayed') {
    return 'events arriving late';
  }
  return null;
}

/**
 * Redraws the tray only when its colour or tooltip changes: health changes a few times a second in a raid,
 * the tray's status a few times a stream, and each redraw re-encodes a PNG.
 */
export function createTrayPainter(
  draw: (status: TrayStatus) => void,
): (state: { mode: AppMode; account: AccountView; health: HealthView }) => void {
  let last: TrayStatus | null = null;
  return (state) => {
    const status = trayStatus(state);
    if (last?.level !== status.level || last.tooltip !== status.tooltip) {
      last = status;
      draw(status);
    }
  };
}
