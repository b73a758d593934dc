/**
 * The panel's access token, kept in the data dir so the OBS dock URL stays the same across restarts (a
 * streamer pastes it into OBS once). The file is 0600; deleting it rotates the token on the next start.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createPanelToken } from './http-guards';

export const PANEL_TOKEN_FILE_NAME = 'panel-token';

const TOKEN_SHAPE = /^[A-Za-z0-9_-]{32,128}$/;

/** Reads the stored token, or creates and stores a fresh one. */
export function loadOrCreatePanelToken(dataDir: string): string {
  const file = join(dataDir, PANEL_TOKEN_FILE_NAME);
  try {
    const stored = readFileSync(file, 'utf8').trim();
    if (TOKEN_SHAPE.test(stored)) {
      return stored;
    }
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') {
      throw error;
    }
  }
  const token = createPanelToken();
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  writeFileSync(file, `${token}\n`, { mode: 0o600 });
  return token;
}
