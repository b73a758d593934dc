/**
 * The panel's one way to main: the named API from the contract over whichever transport this page runs on
 * (the Electron preload bridge, or the panel server's WebSocket in an OBS dock or browser), plus that
 * connection's status. Components never import this; App receives the API as a prop so tests pass a fake.
 */
import { createPanelApi, type PanelApi } from '../../../shared/panel-api';
import { openInThisBrowser, openThroughMain, type OpenLinkFn } from './open-link';
import { pickTransport, type PanelConnection } from './transport';

export interface PanelLink {
  api: PanelApi;
  connection: PanelConnection;
  /** How "Open link" opens a link on this page: through main in the desktop window, else in this browser. */
  openLink: OpenLinkFn;
}

/** Builds the API over the transport picked for this page. */
export function createPanelLink(): PanelLink {
  const connection = pickTransport();
  const api = createPanelApi(connection);
  // The preload bridge exists only in the desktop window, whose own window.open main refuses by design.
  const desktop = (globalThis as { greenroom?: unknown }).greenroom !== undefined;
  return { api, connection, openLink: desktop ? openThroughMain(api) : openInThisBrowser };
}
