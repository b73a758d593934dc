import { randomBytes } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { type AppObs, createAppObs } from '../../../../electron/app/app-obs';
import { openSettings, SETTINGS_FILE_NAME, type SettingsStore } from '../../../../electron/app/settings';
import { MemorySecretStore, SECRET_KEYS } from '../../../../electron/secrets/secret-store';
import type { ObsView } from '../../../../shared/obs';
import { FakeObs } from '../../../helpers/fake-obs';
import { ManualScheduler } from '../../../helpers/manual-scheduler';
import { tempDir } from '../../../helpers/temp-dir';
import { flush, PASSWORD } from '../obs/obs-connection-fixtures';

const SAVE = { enabled: true, host: '127.0.0.1', port: 4455 };

class RefusingStore extends MemorySecretStore {
  override set(): Promise<void> {
    return Promise.reject(new Error('no encryption available'));
  }
}

/** A store whose reads wait until the test releases them (a keyring that is slow to unlock). */
class SlowReadStore extends MemorySecretStore {
  #waiting: (() => void)[] = [];
  override async get(key: string): Promise<string | null> {
    // The value as it was when the read began, answered later.
    const value = await super.get(key);
    await new Promise<void>((resolve) => this.#waiting.push(resolve));
    return value;
  }
  release(): void {
    this.#waiting.splice(0).forEach((resolve) => resolve());
  }
}

let running: AppObs | null = null;
afterEach(async () => {
  await running?.stop();
  running = null;
});

function build(over: { secretStore?: MemorySecretStore; settings?: SettingsStore } = {}) {
  const obs = new FakeObs();
  const scheduler = new ManualScheduler();
  const dir = tempDir('greenroom-app-obs-');
  const clock = { now: 5_000 };
  const settings = over.settings ?? openSettings(dir, { randomBytes });
  const secretStore = over.secretStore ?? new MemorySecretStore();
  const pushed: ObsView[] = [];
  const logs: string[] = [];
  let kick: { live: boolean } | null = null;
  const app = createAppObs({
    settings,
    secretStore,
    linkFactory: obs.link,
    clock: { now: () => clock.now },
    setTimer: scheduler.setTimer,
    random: () => 0,
    log: (line) => logs.push(line),
    kickLive: () => kick,
    onKickLiveChange: () => () => undefined,
    health: () => ({ lag: { samples: 0, p50Ms: null, p95Ms: null, state: 'unknown', delayMs: null } }),
    push: (view) => pushed.push(view),
  });
  running = app;
  return {
    app,
    obs,
    scheduler,
    settings,
    secretStore,
    pushed,
    logs,
    dir,
    clock,
    setKick: (k: typeof kick) => (kick = k),
  };
}

describe('OBS in the app', () => {
  it('saves the connection, keeps the password only in the secret store, and connects at once', async () => {
    const t = build();
    t.app.start();
    await flush();
    expect(t.app.view().connection).toEqual({ kind: 'not-set-up' });
    const view = await t.app.saveConnection({ ...SAVE, password: PASSWORD });
    expect(view.connection).toEqual({ kind: 'connecting', attempt: 1 });
    await flush();
    await flush();
    expect(t.app.view().connection.kind).toBe('connected');
    expect(await t.secretStore.get(SECRET_KEYS.obsPassword)).toBe(PASSWORD);
    expect(t.settings.values().obs).toEqual(SAVE);
    expect(t.app.hasPassword()).toBe(true);
    const onDisk = readFileSync(join(t.dir, `${SETTINGS_FILE_NAME}.json`), 'utf8');
    expect(onDisk).toContain('"port": 4455');
    expect(onDisk).not.toContain(PASSWORD);
    expect(JSON.stringify(t.pushed)).not.toContain(PASSWORD);
    expect(t.logs.join('\n')).not.toContain(PASSWORD);
    // Every change of state went out as it happened.
    const kinds = t.pushed.map((v) => v.connection.kind).filter((kind, i, all) => kind !== all[i - 1]);
    expect(kinds).toEqual(['not-set-up', 'connecting', 'connected']);
  });

  it('keeps the saved password when none is given, and forgets it on an empty one', async () => {
    const t = build();
    await t.app.saveConnection({ ...SAVE, password: PASSWORD });
    await t.app.saveConnection({ ...SAVE, port: 4455 });
    await flush();
    expect(t.app.view().connection.kind).toBe('connected');
    await t.app.saveConnection({ ...SAVE, password: '' });
    await flush();
    expect(await t.secretStore.get(SECRET_KEYS.obsPassword)).toBeNull();
    expect(t.app.hasPassword()).toBe(false);
    expect(t.app.view().connection).toEqual({ kind: 'wrong-password' });
  });

  it('reads the saved password at start and connects with it', async () => {
    const first = build();
    await first.app.saveConnection({ ...SAVE, password: PASSWORD });
    await first.app.stop();
    const again = build({ secretStore: first.secretStore, settings: first.settings });
    again.app.start();
    await flush();
    await flush();
    expect(again.app.view().connection.kind).toBe('connected');
  });

  it('keeps a password saved while the one kept from before was still being read at start', async () => {
    const store = new SlowReadStore();
    await store.set(SECRET_KEYS.obsPassword, 'the-old-one');
    const t = build({ secretStore: store });
    t.app.start();
    await t.app.saveConnection({ ...SAVE, password: PASSWORD });
    store.release();
    await flush();
    await flush();
    expect(t.app.view().connection.kind).toBe('connected');
    expect(t.app.hasPassword()).toBe(true);
  });

  it('leaves the saved connection as it was when the secret store cannot encrypt', async () => {
    const t = build({ secretStore: new RefusingStore() });
    await expect(t.app.saveConnection({ ...SAVE, port: 4460, password: 'x' })).rejects.toThrow('no encryption');
    expect(t.settings.values().obs).toEqual({ enabled: false, host: '127.0.0.1', port: 4455 });
    expect(t.app.hasPassword()).toBe(false);
    expect(t.app.view().connection).toEqual({ kind: 'not-set-up' });
  });

  it('answers requests with "not connected" until OBS is, then switches scenes and outputs', async () => {
    const t = build();
    await expect(t.app.setScene('Scene')).rejects.toMatchObject({ code: 'ObsNotConnected' });
    await t.app.saveConnection({ ...SAVE, password: PASSWORD });
    await flush();
    await t.app.output({ output: 'record', action: 'start' });
    await flush();
    expect(t.obs.studio.record.active).toBe(true);
    await expect(t.app.setScene('Nowhere')).rejects.toMatchObject({
      code: 'ObsRequestFailed',
      details: { obsCode: 600 },
    });
    await expect(t.app.setupForKick({ sceneName: 'Scene', overlays: [] })).rejects.toMatchObject({
      code: 'NotConfigured',
    });
  });

  it('warns when OBS streams while Kick says offline, and leaves no timer once stopped', async () => {
    const t = build();
    t.setKick({ live: false });
    await t.app.saveConnection({ ...SAVE, password: PASSWORD });
    await flush();
    await t.app.output({ output: 'stream', action: 'start' });
    await flush();
    await flush();
    for (let i = 0; i < 16; i++) {
      t.clock.now += 2000;
      t.obs.tick({ ms: 2000, streamBytes: 1_000_000, streamFrames: 60 });
      const poll = [...t.scheduler.pending].find(([, timer]) => timer.ms === 2000)!;
      t.scheduler.pending.delete(poll[0]);
      poll[1].callback();
      await flush();
    }
    expect(t.app.view().warnings.map((w) => w.kind)).toEqual(['obs-live-kick-offline']);
    expect(t.app.view().stats!.stream.bitrateKbps).toBe(4000);
    await t.app.stop();
    expect(t.scheduler.pending.size).toBe(0);
    expect(t.obs.openLinks).toBe(0);
  });

  it('falls back to "not set up" alone for a hand-edited OBS entry it cannot use, keeping the rest', async () => {
    const dir = tempDir('greenroom-app-obs-file-');
    writeFileSync(
      join(dir, `${SETTINGS_FILE_NAME}.json`),
      JSON.stringify({ version: 4, chatScrollback: 500, obs: { enabled: true, host: 'ws://evil:1/x', port: 99_999 } }),
    );
    const notices: string[] = [];
    const settings = openSettings(dir, { randomBytes, notice: (line) => notices.push(line) });
    expect(settings.values().obs).toEqual({ enabled: false, host: '127.0.0.1', port: 4455 });
    expect(settings.values().chatScrollback).toBe(500);
    expect(notices.join('\n')).toMatch(/the OBS connection was reset/i);
    const t = build({ settings });
    t.app.start();
    await flush();
    expect(t.app.view().connection).toEqual({ kind: 'not-set-up' });
    expect(t.obs.requests).toEqual([]);
  });
});
