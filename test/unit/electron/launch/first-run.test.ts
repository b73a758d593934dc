/**
 * What counts as first run: the setup guide opens by itself until the streamer finishes or closes it
 * (`setupGuideDone` in the settings). A new install starts with it not done; a settings file an earlier
 * Greenroom wrote (it has a `version`) belongs to a streamer past first run, who is not shown it again.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openSettings, SETTINGS_FILE_NAME } from '../../../../electron/app/settings';
import { migrateV2ToV3, SETTINGS_VERSION } from '../../../../electron/app/settings-migrations';

const bytes = (n: number) => new Uint8Array(n).fill(7);

describe('first run', () => {
  let dir: string;
  let file: string;
  const open = () => openSettings(dir, { randomBytes: bytes });

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'greenroom-first-run-'));
    file = join(dir, `${SETTINGS_FILE_NAME}.json`);
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('is a new install: the guide is not done until the streamer finishes or closes it', () => {
    expect(open().values().setupGuideDone).toBe(false);
    // Opening again (a restart mid-setup) still shows it.
    expect(open().values().setupGuideDone).toBe(false);
    open().update({ setupGuideDone: true });
    expect(open().values().setupGuideDone).toBe(true);
  });

  it('is not the first start of a streamer whose settings an earlier Greenroom wrote', () => {
    writeFileSync(file, JSON.stringify({ version: 2, clientId: 'abc', webhookPort: 7532 }));
    expect(open().values().setupGuideDone).toBe(true);
    expect(JSON.parse(readFileSync(file, 'utf8'))).toMatchObject({ version: SETTINGS_VERSION, setupGuideDone: true });
  });

  it('keeps what a file already says', () => {
    expect(migrateV2ToV3({ version: 2, setupGuideDone: false })).toEqual({ version: 2, setupGuideDone: false });
    expect(migrateV2ToV3({})).toEqual({ setupGuideDone: false });
  });
});
