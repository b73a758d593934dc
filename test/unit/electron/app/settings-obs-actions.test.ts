/**
 * `settings:update` of the OBS actions through the router, as the panel (or an import) sends it, over a real
 * settings file: a bad action is refused at its field with the limit named, and nothing is written.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createAppSettings } from '../../../../electron/app/app-settings';
import type { AppConfig } from '../../../../electron/app/config';
import { openSettings, SETTINGS_FILE_NAME } from '../../../../electron/app/settings';
import { createRouter, type InvokeHandlers } from '../../../../electron/ipc/router';
import { fieldRefusalsOf } from '../../../../shared/field-refusal';

describe('settings:update of the OBS actions through the router', () => {
  let dir: string;
  let file: string;

  function router() {
    const settings = createAppSettings({
      settings: openSettings(dir, { randomBytes: (n) => new Uint8Array(n).fill(7) }),
      config: {
        credentialSource: { clientId: 'settings', clientSecret: 'none' },
        dataDir: dir,
      } as unknown as AppConfig,
      secretStore: {} as never,
      obsHasPassword: () => false,
      sandboxEmoteHost: null,
      sandboxAdmin: null,
      notApplied: () => null,
    });
    const update: InvokeHandlers['settings:update'] = (patch) => Promise.resolve(settings.update(patch));
    const handlers = new Proxy(
      { 'settings:update': update },
      {
        get: (target, key: string) =>
          (target as Record<string, unknown>)[key] ?? (() => Promise.reject(new Error(key))),
      },
    );
    return createRouter({ handlers: { invoke: handlers as InvokeHandlers, send: {} as never }, log: () => undefined });
  }

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'greenroom-obs-actions-'));
    file = join(dir, `${SETTINGS_FILE_NAME}.json`);
    openSettings(dir, { randomBytes: (n) => new Uint8Array(n).fill(7) }).update({ setupGuideDone: true });
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  const reward = (over: Record<string, unknown> = {}) => ({
    enabled: true,
    rewardId: 'rw-1',
    rewardTitle: 'Confetti',
    source: 'Confetti',
    scene: null,
    seconds: 10,
    ...over,
  });
  const actions = (over: Record<string, unknown>) => ({
    adBreak: { enabled: false, scene: '' },
    rewards: [],
    goLive: { enabled: false, scene: '' },
    goOffline: { enabled: false, scene: '' },
    raid: { enabled: false, scene: '' },
    ...over,
  });

  it('saves the actions and hands them back in the settings view', async () => {
    const obsActions = actions({ adBreak: { enabled: true, scene: 'Ads' }, rewards: [reward()] });
    const result = await router().invoke('settings:update', [{ obsActions }]);
    expect(result.ok && (result.value as { obsActions: unknown }).obsActions).toEqual(obsActions);
    expect(JSON.parse(readFileSync(file, 'utf8')).obsActions).toEqual(obsActions);
  });

  it.each([
    ['0 seconds', { rewards: [reward({ seconds: 0 })] }, 'obsActions.rewards.0.seconds', /from 1 to 300/],
    ['301 seconds', { rewards: [reward({ seconds: 301 })] }, 'obsActions.rewards.0.seconds', /from 1 to 300/],
    ['1e9 seconds', { rewards: [reward({ seconds: 1e9 })] }, 'obsActions.rewards.0.seconds', /from 1 to 300/],
    [
      'a 201-character source',
      { rewards: [reward({ source: 'x'.repeat(201) })] },
      'obsActions.rewards.0.source',
      /at most 200 characters/,
    ],
    [
      'a 201-character scene',
      { adBreak: { enabled: true, scene: 'x'.repeat(201) } },
      'obsActions.adBreak.scene',
      /at most 200 characters/,
    ],
    [
      'an ad-break action on with no scene',
      { adBreak: { enabled: true, scene: '' } },
      'obsActions.adBreak.scene',
      /choose the scene/,
    ],
    [
      '10,000 reward actions',
      { rewards: Array.from({ length: 10_000 }, (_, i) => reward({ rewardId: `r${i}` })) },
      'obsActions.rewards',
      /at most 20/,
    ],
  ])('refuses %s at its field and writes nothing', async (_, over, field, reason) => {
    const before = readFileSync(file, 'utf8');
    const result = await router().invoke('settings:update', [{ obsActions: actions(over) }]);
    expect(result.ok).toBe(false);
    expect(readFileSync(file, 'utf8')).toBe(before);
    const refusals = result.ok ? [] : fieldRefusalsOf(result.error);
    expect(refusals[0]?.field).toBe(field);
    expect(refusals[0]?.reason).toMatch(reason);
  });
});
