/**
 * The panel's one way to main: the named API from the contract over whichever transport this page runs on
 * (the Electron preload bridge, or the panel server's WebSocket in an OBS dock or browser), plus that
 * connection's status. Components never import this; App receives the API as a prop so tests pass a fake.
 */
import { createPanelApi, type PanelApi } from '../../../shared/panel-api';
import { pickTransport, type PanelConnection } from './transport';

export interface PanelLink {
  api: PanelApi;
  connection: PanelConnection;
}

/** Builds the API over the transport picked for this page. */
export function createPanelLink(): PanelLink {
  const connection = pickTransport();
  return { api: createPanelApi(connection), connection };
}
