/**
 * OBS in the app (docs/obs.md): the connection, the monitor, the actions and "Set up OBS for Kick", built
 * from the settings, the SecretStore and a link factory, behind the port the handlers call.
 */
import { AppError } from '../../shared/errors';
import { OBS_VIEW_NOT_SET_UP } from '../../shared/obs';
import type { ObsPort } from '../obs/obs-port';

function notConnected(): Promise<never> {
  return Promise.reject(new AppError('ObsNotConnected', 'OBS: not connected'));
}

/** The OBS port while no connection is set up: every request says OBS is not connected. */
export function createAppObs(): ObsPort & { stop(): void } {
  return {
    view: () => OBS_VIEW_NOT_SET_UP,
    saveConnection: notConnected,
    setScene: notConnected,
    setSourceVisible: notConnected,
    output: notConnected,
    setupForKick: notConnected,
    stop: () => undefined,
  };
}
