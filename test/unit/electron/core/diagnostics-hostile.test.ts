import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  createDiagnosticsSaver,
  DIAGNOSTICS_DIR_NAME,
  DIAGNOSTICS_KEPT,
  type DiagnosticsDeps,
} from '../../../../electron/core/diagnostics';
import { createLogger, RECENT_LINES } from '../../../../electron/core/logger';
import { createHandlers } from '../../../../electron/ipc/handlers';
import { createRouter } from '../../../../electron/ipc/router';

let home: string;
let dataDir: string;
let now: number;
const clock = { now: () => now };
beforeEach(() => {
  home = mkdtempSync(join(tmpdir(), 'greenroom-home-'));
  dataDir = join(home, '.config', 'Greenroom');
  mkdirSync(dataDir, { recursive: true });
  now = Date.UTC(2026, 10, 28, 0, 40, 0);
});
afterEach(() => rmSync(home, { recursive: true, force: true }));

/** The app's `diagnostics:save` as a panel reaches it: through the router and the handlers. */
function appWith(logger = createLogger({ level: 'info', clock }), settings: unknown = { theme: 'dark' }) {
  const deps: DiagnosticsDeps = { dataDir, clock, logger, versions: { greenroom: '1.0.0' }, home };
  const handlers = createHandlers({
    settings: { view: () => settings },
    health: () => ({ webhooks: 'ok' }),
    log: () => undefined,
    diagnostics: createDiagnosticsSaver(() => deps),
  } as unknown as Parameters<typeof createHandlers>[0]);
  const router = createRouter({ handlers, log: () => undefined });
  return { save: () => router.invoke('diagnostics:save', []) };
}
const saved = () => readdirSync(join(dataDir, DIAGNOSTICS_DIR_NAME)).sort();

describe('Save diagnostics asked for again and again', () => {
  it('keeps only the newest files in the folder', async () => {
    const app = appWith();
    for (let n = 0; n < DIAGNOSTICS_KEPT + 4; n++) {
      expect(await app.save()).toMatchObject({ ok: true });
      now += 11_000;
    }
    expect(saved()).toHaveLength(DIAGNOSTICS_KEPT);
    expect(saved().at(-1)).toBe('greenroom-diagnostics-20261128-004128.json');
  });

  it('refuses a second save within seconds, with the rate-limit code in plain words', async () => {
    const app = appWith();
    expect(await app.save()).toMatchObject({ ok: true });
    now += 3_000;
    const again = await app.save();
    expect(again).toMatchObject({ ok: false, error: { code: 'Ratelimited' } });
    expect(JSON.stringify(again)).toContain('Wait 7 s, then save again');
    expect(saved()).toHaveLength(1);
    now += 7_000;
    expect(await app.save()).toMatchObject({ ok: true });
  });

  it('caps the file when every log line is long', async () => {
    const logger = createLogger({ level: 'info', clock });
    for (let n = 0; n < RECENT_LINES; n++) {
      logger.info(`line ${n} ${'"'.repeat(60_000)}`);
    }
    const result = (await appWith(logger).save()) as { ok: true; value: { text: string } };
    expect(result.value.text.length).toBeLessThan(4_000_000);
    const parsed = JSON.parse(result.value.text) as { log: string[]; logLinesLeftOut: number };
    expect(parsed.log.at(-1)).toContain(`line ${RECENT_LINES - 1} `);
    expect(parsed.logLinesLeftOut).toBeGreaterThan(0);
  });

  it('writes the home folder as ~ in every path, settings and log lines alike', async () => {
    const logger = createLogger({ level: 'info', clock });
    logger.warn(`secrets: token file ${join(dataDir, 'tokens.json')} could not be read`);
    const result = (await appWith(logger, { dataDir }).save()) as { ok: true; value: { text: string } };
    const file = readFileSync(join(dataDir, DIAGNOSTICS_DIR_NAME, saved()[0]!), 'utf8');
    for (const text of [result.value.text, file]) {
      expect(text).not.toContain(home);
      expect(text).toContain(`~/.config/Greenroom/tokens.json could not be read`);
      expect(JSON.parse(text)).toMatchObject({ settings: { dataDir: '~/.config/Greenroom' } });
    }
  });
});
