import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DIAGNOSTICS_DIR_NAME, runtimeVersions, saveDiagnostics } from '../../../../electron/core/diagnostics';
import { createLogger, RECENT_LINES } from '../../../../electron/core/logger';
import { createHandlers } from '../../../../electron/ipc/handlers';

const clock = { now: () => Date.UTC(2026, 10, 27, 23, 40, 5) };
let dataDir: string;
beforeEach(() => {
  dataDir = mkdtempSync(join(tmpdir(), 'greenroom-diag-'));
});
afterEach(() => rmSync(dataDir, { recursive: true, force: true }));

describe('Save diagnostics', () => {
  it('writes versions, settings, health, recent errors and the last 2,000 log lines, with no secret', () => {
    const logger = createLogger({ level: 'info', clock });
    logger.secrets.add('overlay-key-0123456789');
    for (let n = 0; n < RECENT_LINES + 50; n++) {
      logger.info(`line ${n}`);
    }
    logger.warn('obs: connect failed with overlay-key-0123456789');
    const saved = saveDiagnostics(
      { dataDir, clock, logger, versions: runtimeVersions('1.2.3', process) },
      // A settings view that (wrongly) carried a secret still leaves without it.
      { settings: { theme: 'dark', note: 'overlay-key-0123456789' }, health: { webhooks: 'ok' } },
    );
    expect(saved.path).toBe(join(dataDir, DIAGNOSTICS_DIR_NAME, 'greenroom-diagnostics-20261127-234005.json'));
    const text = readFileSync(saved.path!, 'utf8');
    expect(text).toBe(saved.text);
    expect(text).not.toContain('overlay-key-0123456789');
    const parsed = JSON.parse(text) as Record<string, unknown> & { log: string[]; recentErrors: string[] };
    expect(parsed.versions).toMatchObject({ greenroom: '1.2.3', node: process.versions.node });
    expect(parsed.settings).toEqual({ theme: 'dark', note: '[redacted]' });
    expect(parsed.health).toEqual({ webhooks: 'ok' });
    expect(parsed.log).toHaveLength(RECENT_LINES);
    expect(parsed.log.at(-1)).toContain('obs: connect failed with [redacted]');
    expect(parsed.recentErrors).toHaveLength(1);
  });

  it('still hands the file back, with one line, when the data folder refuses it', () => {
    writeFileSync(join(dataDir, DIAGNOSTICS_DIR_NAME), 'a file where the folder belongs');
    const logger = createLogger({ level: 'info', clock });
    const saved = saveDiagnostics({ dataDir, clock, logger, versions: {} }, { settings: {}, health: {} });
    expect(saved.path).toBeNull();
    expect(saved.notice).toContain('could not be saved in');
    expect(JSON.parse(saved.text)).toMatchObject({ settings: {}, health: {} });
  });

  it('is answered NotConfigured by an app whose entry keeps no log', async () => {
    const handlers = createHandlers({
      settings: { view: () => ({}) },
      health: () => ({}),
      log: () => undefined,
    } as unknown as Parameters<typeof createHandlers>[0]);
    await expect(handlers.invoke['diagnostics:save']()).rejects.toMatchObject({ code: 'NotConfigured' });
  });
});
