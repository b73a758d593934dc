/**
 * An automation file as the panel reads it ([Import and export](../docs/automod.md#import-and-export)):
 * its size checked before anything else, then UTF-8 text, then JSON. What it holds is judged by
 * automation-import.ts.
 */
import { refuse, type ImportRefusal } from './automation-issues';
import { PANEL_MAX_FRAME_BYTES } from './panel-protocol';

/** The export file's `kind`: tells an import it is the right file. */
export const AUTOMATION_FILE_KIND = 'greenroom-automation';
export const AUTOMATION_FILE_VERSION = 1;

/**
 * Largest file the panel reads. The biggest setup the schemas allow, written with three-byte characters
 * throughout and pretty-printed, is about 1.3 MB; 2 MB leaves room for that and stays well under the panel
 * socket's frame (PANEL_MAX_FRAME_BYTES) together with the sections the file leaves as they are.
 */
export const AUTOMATION_FILE_MAX_BYTES = 2_000_000;

/**
 * Largest `settings:update` an import sends: the panel socket's frame cap less room for the envelope
 * (`{"type":"invoke","id":…,"channel":"settings:update","args":[…]}`). A bigger frame would close the socket.
 */
export const AUTOMATION_SEND_MAX_BYTES = PANEL_MAX_FRAME_BYTES - 64 * 1024;

/** "50.0 MB", "812 kB". */
export function formatBytes(bytes: number): string {
  return bytes >= 1_000_000 ? `${(bytes / 1_000_000).toFixed(1)} MB` : `${Math.ceil(bytes / 1000)} kB`;
}

/** The refusal for a file over the limit, before a byte of it is read. */
export function refuseSize(bytes: number): ImportRefusal {
  return refuse(
    `This file is ${formatBytes(bytes)}; the limit is ${AUTOMATION_FILE_MAX_BYTES / 1_000_000} MB. Choose a file exported from Greenroom’s Automation tab.`,
  );
}

/** Reads a file's bytes as JSON: UTF-8 (a leading byte-order mark is fine) and within the size limit. */
export function readAutomationFile(bytes: Uint8Array): { ok: true; value: unknown } | ImportRefusal {
  if (bytes.length > AUTOMATION_FILE_MAX_BYTES) {
    return refuseSize(bytes.length);
  }
  if (bytes.length === 0) {
    return refuse('This file is empty. Choose a file exported from Greenroom’s Automation tab.');
  }
  if ((bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[0] === 0xfe && bytes[1] === 0xff)) {
    return refuse('This file is saved as UTF-16 text. Save it as UTF-8 and import it again.', 'UTF-16 byte-order mark');
  }
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return refuse(
      'This file is not a text file. Choose a file exported from Greenroom’s Automation tab.',
      'not valid UTF-8',
    );
  }
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch (error) {
    return refuse(
      'This file is not JSON. Choose a file exported from Greenroom’s Automation tab.',
      (error as Error).message.slice(0, 200),
    );
  }
}
