import { randomBytes } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openSettings, SETTINGS_FILE_NAME } from '../../../../electron/app/settings';
import { createHandlers, type HandlerDeps } from '../../../../electron/ipc/handlers';
import { createRouter } from '../../../../electron/ipc/router';
import { tempDir } from '../../../helpers/temp-dir';

/** A settings file in a fresh folder, and `settings:update` through the router as a panel sends it. */
function setup() {
  const dir = tempDir('greenroom-history-settings-');
  const logs: string[] = [];
  const settings = openSettings(dir, { randomBytes, log: (line) => logs.push(line) });
  const deps = {
    settings: { view: () => settings.values(), update: (patch: never) => settings.update(patch) },
    log: () => undefined,
  } as unknown as HandlerDeps;
  const router = createRouter({ handlers: createHandlers(deps), log: () => undefined });
  const file = join(dir, `${SETTINGS_FILE_NAME}.json`);
  return { dir, settings, router, file, logs };
}

describe('settings: how long the stream history keeps chat', () => {
  it('keeps chat 90 days by default, and a file from before the history gets the default', () => {
    const { dir, settings, file } = setup();
    expect(settings.values().history).toEqual({ chatDays: 90 });
    writeFileSync(file, JSON.stringify({ version: 4, chatScrollback: 700 }));
    const reopened = openSettings(dir, { randomBytes, log: () => {} });
    expect(reopened.values().history).toEqual({ chatDays: 90 });
    expect(reopened.values().chatScrollback).toBe(700);
  });

  it.each([1, 30, 36_500])('saves %i days through settings:update', async (chatDays) => {
    const { dir, router } = setup();
    const result = await router.invoke('settings:update', [{ history: { chatDays } }]);
    expect(result.ok).toBe(true);
    expect(openSettings(dir, { randomBytes, log: () => {} }).values().history).toEqual({ chatDays });
  });

  it.each([
    ['0 days', 0],
    ['a negative number', -5],
    ['more than 100 years', 36_501],
    ['a fraction', 1.5],
    ['a number as text', '90'],
    ['no number', null],
    ['infinity as a huge number', 1e308],
  ])('refuses %s at the field, naming the limit, and keeps what was saved', async (_name, chatDays) => {
    const { settings, router, file } = setup();
    await router.invoke('settings:update', [{ history: { chatDays: 30 } }]);
    const before = readFileSync(file, 'utf8');
    const result = await router.invoke('settings:update', [{ history: { chatDays } }]);
    expect(result.ok).toBe(false);
    expect(!result.ok && result.error.code).toBe('InvalidArgument');
    expect(!result.ok && result.error.message).toContain('chatDays');
    expect(!result.ok && result.error.message).toContain('from 1 to 36,500 days');
    expect(settings.values().history).toEqual({ chatDays: 30 });
    expect(readFileSync(file, 'utf8')).toBe(before);
  });

  it('refuses a field it does not know inside the history settings', async () => {
    const { router } = setup();
    const result = await router.invoke('settings:update', [{ history: { chatDays: 9, keepForever: true } }]);
    expect(!result.ok && result.error.code).toBe('InvalidArgument');
    expect(!result.ok && result.error.message).toContain('keepForever');
  });

  it('puts a hand-edited bad value back to the default alone, and says so', () => {
    const { dir, settings, file } = setup();
    settings.update({ chatScrollback: 500, history: { chatDays: 7 } });
    const doc = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
    writeFileSync(file, JSON.stringify({ ...doc, history: { chatDays: 0 } }));
    const logs: string[] = [];
    const reopened = openSettings(dir, { randomBytes, log: (line) => logs.push(line) });
    expect(reopened.values().history).toEqual({ chatDays: 90 });
    expect(reopened.values().chatScrollback).toBe(500);
    expect(logs.join('\n')).toMatch(/history.*chatDays/);
  });
});
