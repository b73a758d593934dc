/**
 * Where the panel server serves overlays (docs/overlays.md). Apart from `overlays.ts` so an overlay page
 * imports them without bundling the settings schemas.
 */
export const OVERLAY_PATH_PREFIX = '/overlay/';
/** The overlays there are, each at `/overlay/<kind>`. */
export const OVERLAY_KINDS = ['alerts', 'chat', 'goal', 'events'] as const;
export const OVERLAY_WS_PATH = '/overlay/ws';
export const OVERLAY_MEDIA_PATH = '/overlay/media/';
/** The emote host an overlay page is given: main serves `/overlay/emotes/<id>/fullsize` from its cache. */
export const OVERLAY_EMOTE_HOST = '/overlay';
export const OVERLAY_EMOTES_PATH = '/overlay/emotes/';
/** Close code when the overlay key was regenerated: the page stops reconnecting. */
export const OVERLAY_CLOSE_KEY_CHANGED = 4401;
