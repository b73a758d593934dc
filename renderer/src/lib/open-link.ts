/**
 * Opening a link the streamer asked for ("Open link"). In the desktop window main opens it in the system
 * browser (`app:open-external`, which checks it against its allow-list); in a browser or an OBS dock the
 * panel is already in a browser, so the link opens there in a new tab or window. Either way nothing is
 * fetched by the panel itself.
 */
import type { PanelApi } from '../../../shared/panel-api';

/** Opens `url` for the streamer. */
export type OpenLinkFn = (url: string) => void;

/** A new tab or window of the browser the panel runs in (a browser panel, an OBS dock). */
export function openInThisBrowser(url: string): void {
  // Web links only: a `javascript:` or `data:` URL would run in a tab of the panel's own browser.
  if (URL.canParse(url) && ['http:', 'https:'].includes(new URL(url).protocol)) {
    window.open(url, '_blank', 'noopener,noreferrer');
  }
}

/** Main's system browser (the desktop window, where `window.open` is refused by design). */
export function openThroughMain(api: PanelApi): OpenLinkFn {
  return (url) => api.app.openExternal({ url });
}
