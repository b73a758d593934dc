import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openLogFile } from '../../../../electron/core/log-file';
import { createLogger, MAX_VALUE_CHARS, parseLine, TRUNCATED } from '../../../../electron/core/logger';

const clock = { now: () => Date.UTC(2026, 10, 28, 0, 30, 0) };
const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach((dir) => rmSync(dir, { recursive: true, force: true })));

function fileIn(maxBytes?: number) {
  const dataDir = mkdtempSync(join(tmpdir(), 'greenroom-logh-'));
  dirs.push(dataDir);
  const file = openLogFile({ dataDir, nowMs: clock.now, notice: () => undefined, ...(maxBytes ? { maxBytes } : {}) });
  return { file: file!, read: () => readFileSync(file!.path, 'utf8') };
}

describe('the logger against hostile records', () => {
  it('redacts the lines kept before the file opened with the secrets learned since', () => {
    const echoed: string[] = [];
    const logger = createLogger({ level: 'info', clock, echo: (line) => echoed.push(line) });
    // Logged at launch, before the panel token is known.
    logger.info('panel listening at /panel/pt-0123456789abcdef');
    logger.warn('overlay link /o/ok-fedcba9876543210 refused', { seen: 'ok-fedcba9876543210' });
    logger.secrets.add('pt-0123456789abcdef');
    logger.secrets.add('ok-fedcba9876543210');
    const { file, read } = fileIn();
    logger.attachFile(file);
    logger.info('after pt-0123456789abcdef');
    const text = read();
    expect(text).not.toContain('0123456789abcdef');
    expect(text).not.toContain('fedcba9876543210');
    expect(text.split('\n').filter(Boolean)).toHaveLength(3);
    expect(text).toContain('panel listening at /panel/[redacted]');
  });

  it('cuts a huge message and huge field values, so one record cannot take the file far past its cap', () => {
    const logger = createLogger({ level: 'info', clock });
    const { file, read } = fileIn(100_000);
    logger.attachFile(file);
    logger.info('x'.repeat(3_000_000), { body: 'y'.repeat(3_000_000), nested: { deep: 'z'.repeat(100_000) } });
    logger.line(`webhooks: warn: ${'w'.repeat(1_000_000)}`);
    expect(statSync(file.path).size).toBeLessThan(100_000 + 4 * MAX_VALUE_CHARS + 1_000);
    const records = read()
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(records[0]!.msg).toBe(`${'x'.repeat(MAX_VALUE_CHARS)}${TRUNCATED}`);
    expect(records[0]!.body).toBe(`${'y'.repeat(MAX_VALUE_CHARS)}${TRUNCATED}`);
    expect(String(records[0]!.nested)).toMatch(/^\{"deep":"z+…\(truncated\)$/);
    expect(String(records.at(-1)!.msg).endsWith(TRUNCATED)).toBe(true);
  });

  it('never leaves the first half of a secret where a long value is cut', () => {
    const logger = createLogger({ level: 'info', clock });
    logger.secrets.add('sk-secret-abcdefghijkl');
    logger.info(`${'a'.repeat(MAX_VALUE_CHARS - 5)}sk-secret-abcdefghijkl`);
    expect(logger.recentLines().join('\n')).not.toContain('sk-se');
  });

  it('keeps many fields whole in a record but cuts the record when they add up', () => {
    const logger = createLogger({ level: 'info', clock });
    const fields = Object.fromEntries(Array.from({ length: 40 }, (_, n) => [`f${n}`, 'v'.repeat(MAX_VALUE_CHARS)]));
    logger.warn('many', fields);
    const [line] = logger.recentLines();
    expect(line!.length).toBeLessThan(4 * MAX_VALUE_CHARS + 200);
    expect(JSON.parse(line!)).toMatchObject({ level: 'warn', msg: expect.stringMatching(/…\(truncated\)$/) });
  });

  it('reads a long line full of " {" with no closing brace as its message', () => {
    const rest = ' {'.repeat(20_000);
    expect(parseLine(`webhooks: info: ${rest}`)).toEqual({ level: 'info', message: `webhooks: ${rest}` });
    const fields = parseLine(`webhooks: warn: a {b} c {"id":"m1","note":"x{y}"}`);
    expect(fields).toEqual({ level: 'warn', message: 'webhooks: a {b} c', fields: { id: 'm1', note: 'x{y}' } });
  });

  it('redacts a learned secret in its form, lower-case and Basic spellings', () => {
    const logger = createLogger({ level: 'info', clock });
    const secret = 'Cl1ent secret!/+=é';
    logger.secrets.add(secret);
    const { file, read } = fileIn();
    logger.attachFile(file);
    const form = new URLSearchParams({ v: secret }).toString().slice(2);
    logger.info(`kick: POST body client=x&s=${form}&grant=1`);
    const lower = encodeURIComponent(secret).replace(/%[0-9A-F]{2}/g, (escape) => escape.toLowerCase());
    logger.info(`kick: query s=${lower}`);
    logger.warn('kick: GET /x failed', { headers: `Authorization: Basic ${btoa('client-id:Cl1ent-secret')}` });
    logger.line(`kick: info: sent {"authorization":"basic ${btoa('id:pw-0123')}"}`);
    const text = read();
    expect(text).not.toContain(form);
    expect(text).not.toContain(lower.slice(0, 14));
    expect(text).not.toContain(btoa('client-id:Cl1ent-secret'));
    expect(text).not.toContain(btoa('id:pw-0123'));
    expect(text).toContain('Authorization: Basic [redacted]');
  });
});
