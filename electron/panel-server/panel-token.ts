/**
 * The panel's access token, kept in the data dir so the OBS dock URL stays the same across restarts (a
 * streamer pastes it into OBS once). The file is 0600; deleting it rotates the token on the next start.
 *
 * What stands there is read only if it is a plain file ([design notes](../../docs/design-notes.md#files-in-the-data-folder)):
 * a link is moved aside, never followed (a link to another file would have had that file read as the
 * token, or overwritten with a new one), and so is a file that holds no token, each with one plain line.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { FOLDER_MODE, readDataFile, RefusedPathError, writeDataFile } from '../core/data-files';
import { asideReason, fsReason, moveAside } from '../secrets/damaged-file';
import { createPanelToken } from '../secrets/access-token';

export const PANEL_TOKEN_FILE_NAME = 'panel-token';

const TOKEN_SHAPE = /^[A-Za-z0-9_-]{32,128}$/;

/** What a new token means for the streamer. */
const NEW_URL = 'a new one was made, so the dock URL changed: paste the new one into OBS';

/** Options of {@link loadOrCreatePanelToken}. */
export interface PanelTokenDeps {
  /** One plain line for the streamer when the stored token could not be used. */
  notice?: (line: string) => void;
  nowMs?: () => number;
}

/** Reads the stored token, or creates and stores a fresh one. */
export function loadOrCreatePanelToken(dataDir: string, options: PanelTokenDeps = {}): string {
  const notice = options.notice ?? (() => undefined);
  const file = join(dataDir, PANEL_TOKEN_FILE_NAME);
  let why: string;
  try {
    const stored = readDataFile(file);
    if (stored === null) {
      return store(dataDir, file, createPanelToken());
    }
    const text = stored.toString('utf8').trim();
    if (TOKEN_SHAPE.test(text)) {
      return text;
    }
    why = 'was damaged (it holds no token)';
  } catch (error) {
    if (!(error instanceof RefusedPathError)) {
      throw error;
    }
    why = asideReason(error);
  }
  const token = createPanelToken();
  try {
    const aside = moveAside(file, (options.nowMs ?? Date.now)());
    notice(`Greenroom: the panel token file ${file} ${why}; it was moved to ${aside} and ${NEW_URL}.`);
  } catch (error) {
    // Kept in memory for this run: the dock URL works until Greenroom closes.
    notice(
      `Greenroom: the panel token file ${file} ${why}, and it could not be moved aside (${fsReason(error)}); ` +
        `${NEW_URL}, and it changes again on the next start.`,
    );
    return token;
  }
  return store(dataDir, file, token);
}

function store(dataDir: string, file: string, token: string): string {
  mkdirSync(dataDir, { recursive: true, mode: FOLDER_MODE });
  writeDataFile(file, `${token}\n`);
  return token;
}
