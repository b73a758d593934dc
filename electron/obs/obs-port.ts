/**
 * What the contract's OBS handlers call (electron/ipc/handlers.ts). `electron/app/app-obs.ts` builds it
 * from the connection, the monitor and "Set up OBS for Kick" (docs/obs.md).
 */
import type { ObsConnectionSave, ObsSetupResult, ObsView } from '../../shared/obs';

export interface ObsPort {
  view(): ObsView;
  /** Saves host, port and (when given) the password, then connects again at once. */
  saveConnection(input: ObsConnectionSave): Promise<ObsView>;
  setScene(sceneName: string): Promise<void>;
  setSourceVisible(input: { sceneName: string; sceneItemId: number; enabled: boolean }): Promise<void>;
  output(input: { output: 'stream' | 'record'; action: 'start' | 'stop' }): Promise<void>;
  setupForKick(input: { sceneName: string; overlays: string[] }): Promise<ObsSetupResult>;
}
