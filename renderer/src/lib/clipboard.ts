/**
 * Copying text for the webhook URL, redirect URL and dock URL. The async Clipboard API needs a secure
 * context, which the Electron window and the loopback panel server both are; an OBS dock on an older
 * Chromium may still lack it, so fall back to a hidden text area and `execCommand`.
 */

/** Writes `text` to the clipboard; resolves to whether it worked. */
export async function copyText(text: string): Promise<boolean> {
  try {
    if (typeof navigator !== 'undefined' && navigator.clipboard) {
      await navigator.clipboard.writeText(text);
      return true;
    }
  } catch {
    // fall through to the legacy path
  }
  try {
    const area = document.createElement('textarea');
    area.value = text;
    area.setAttribute('readonly', '');
    area.className = 'visually-hidden';
    document.body.append(area);
    area.select();
    const done = document.execCommand('copy');
    area.remove();
    return done;
  } catch {
    return false;
  }
}

/** The shape components accept, so tests can pass a fake. */
export type CopyFn = (text: string) => Promise<boolean>;
