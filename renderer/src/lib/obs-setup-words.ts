/**
 * What "Set up OBS for Kick" did, in one line ([set up OBS for Kick](../../../docs/obs.md#set-up-obs-for-kick)):
 * the stream settings, then the overlays added, updated to a new address, or already there. Where OBS has no browser source the
 * line says so, and the panel lists the addresses beside it. Pure.
 */
import type { ObsSetupResult } from '../../../shared/obs';

/** "A", "A and B", "A, B and C". */
export function andList(items: readonly string[]): string {
  return items.length <= 1 ? (items[0] ?? '') : `${items.slice(0, -1).join(', ')} and ${items.at(-1)}`;
}

/**
 * Where OBS has no browser source, "Sources → + → Browser" does not exist in it either: say why, and the two
 * ways that work ([set up OBS for Kick](../../../docs/obs.md#set-up-obs-for-kick)).
 */
export const BY_HAND_LINE =
  'This OBS was built without the browser source, as some Linux packages are; the official OBS from obsproject.com has it. ' +
  'Install OBS with the browser source (the official build or the Flatpak) and run this again, ' +
  'or open each address below in a browser and add that window to OBS with Window Capture.';

/** The one line the panel shows after a set-up that worked. */
export function setupLine(result: ObsSetupResult, sceneName: string): string {
  const parts = [
    result.streamSettings === 'written' ? 'OBS is set to stream to Kick.' : 'OBS was already set to stream to Kick.',
  ];
  if (result.addByHand.length > 0) {
    parts.push(BY_HAND_LINE);
    return parts.join(' ');
  }
  if (result.added.length > 0) {
    parts.push(`Added ${andList(result.added)} to ${sceneName}.`);
  }
  if (result.updated.length > 0) {
    parts.push(
      `Updated ${andList(result.updated)} in OBS to ${result.updated.length === 1 ? 'its' : 'their'} new address.`,
    );
  }
  if (result.skipped.length > 0) {
    parts.push(`${andList(result.skipped)} ${result.skipped.length === 1 ? 'was' : 'were'} already there.`);
  }
  return parts.join(' ');
}

/** An overlay address without its key, for showing: the key stays in what is copied (docs/overlays.md#what-an-overlay-url-can-do). */
export function maskedOverlayUrl(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.origin}${parsed.pathname}${parsed.search ? '?key=…' : ''}`;
  } catch {
    return '…';
  }
}
