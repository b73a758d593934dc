/**
 * Where the panel's alert preview loads an image the streamer added (docs/overlays.md#a-live-preview).
 * Main serves added media only under the overlay key (`/overlay/media/…`), which the overlay page has and
 * the panel does not send along. So the preview shows a file picked in this panel session from the bytes
 * it already has (a `data:` URL, which the panel's policy allows), and an earlier one through the overlay
 * URL where the panel is served by the same server (a browser or OBS dock). Sounds are never played here.
 */
import { OVERLAY_MEDIA_PATH } from '../../../shared/overlay-paths';

const picked = new Map<string, string>();

/** Remembers a file just added, by its stored name, for the preview. */
export function rememberPicked(name: string, type: string, bytes: Uint8Array): void {
  if (!type.startsWith('image/')) {
    return;
  }
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) {
    binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  }
  picked.set(name, `data:${type};base64,${btoa(binary)}`);
}

/**
 * The preview's URL for a stored media URL from alertViewOf (`/overlay/media/<name>`); `builtin:` and
 * null pass through. `alertsUrl` is the alert box's overlay URL (with its key), or null.
 */
export function previewImageSrc(src: string | null, alertsUrl: string | null, here: string): string | null {
  if (src === null || !src.startsWith(OVERLAY_MEDIA_PATH)) {
    return src;
  }
  const name = src.slice(OVERLAY_MEDIA_PATH.length);
  const remembered = picked.get(name);
  if (remembered) {
    return remembered;
  }
  if (alertsUrl === null) {
    return null;
  }
  const overlay = new URL(alertsUrl);
  if (overlay.origin !== new URL(here).origin) {
    return null;
  }
  return `${src}?key=${encodeURIComponent(overlay.searchParams.get('key') ?? '')}`;
}
