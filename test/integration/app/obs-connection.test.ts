/**
 * The OBS connection through the router, as a panel asks for it (`obs:save-connection`, `obs:status`,
 * `settings:get`), on the app built by createApp in sandbox mode with the in-memory OBS as its link and the
 * real encrypted secret store on disk: hostile inputs name their field and change nothing; the password
 * never reaches a file in the clear, a push, a view or a log line; OBS killed is "not reachable" at once
 * and back by itself when it restarts.
 */
import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { resolveConfig } from '../../../electron/app/config';
import { createApp, type GreenroomApp } from '../../../electron/app/create-app';
import { openSettings } from '../../../electron/app/settings';
import { systemClock } from '../../../electron/core/clock';
import { createNodeSecretStore } from '../../../electron/secrets/node-secret-store';
import type { ErrorValue, Result } from '../../../shared/errors';
import type { ObsView } from '../../../shared/obs';
import { FakeObs } from '../../helpers/fake-obs';
import { tempDir } from '../../helpers/temp-dir';
import { createSandboxWebhookPort } from './sandbox-webhook-port';

const PASSWORD = 'hunter2-obs-Zq8';
const obs = new FakeObs({ password: PASSWORD });
const dir = tempDir('greenroom-obs-app-');
const logs: string[] = [];
const pushed: unknown[] = [];
let app: GreenroomApp;

async function invoke(channel: string, arg?: unknown): Promise<Result<unknown>> {
  const result = await app.router.invoke(channel, arg === undefined ? [] : [arg]);
  pushed.push(result);
  return result;
}

async function refusal(channel: string, arg: unknown): Promise<ErrorValue> {
  const result = await invoke(channel, arg);
  if (result.ok) {
    throw new Error(`${channel} was accepted`);
  }
  return result.error;
}

const status = async (): Promise<ObsView> => ((await invoke('obs:status')) as { value: ObsView }).value;
const kind = async (): Promise<string> => (await status()).connection.kind;

beforeAll(async () => {
  const settings = openSettings(dir, { randomBytes });
  settings.update({ redirectUri: 'http://127.0.0.1:0/callback' });
  const config = resolveConfig({
    env: { GREENROOM_SANDBOX_ACTIVITY: 'off' },
    settings: settings.values(),
    storedClientSecret: null,
    dataDir: dir,
  });
  app = await createApp(config, {
    clock: systemClock,
    openExternal: () => Promise.resolve(),
    secretStore: createNodeSecretStore(dir),
    webhooks: (deps) => createSandboxWebhookPort(deps),
    log: (line) => logs.push(line),
    dataDir: dir,
    settings,
    obsLink: obs.link,
  });
  app.events.on('obs:changed', (view) => pushed.push(view));
  app.events.on('settings:changed', (view) => pushed.push(view));
  await app.start();
});

afterAll(async () => {
  await app?.stop();
});

const SAVE = { enabled: true, host: '127.0.0.1', port: 4455 };

describe('the OBS connection through the router', () => {
  it('connects with the right password and says which OBS', async () => {
    expect(await kind()).toBe('not-set-up');
    const saved = await invoke('obs:save-connection', { ...SAVE, password: PASSWORD });
    expect(saved).toMatchObject({ ok: true, value: { connection: { kind: 'connecting' } } });
    await vi.waitFor(async () => expect(await kind()).toBe('connected'));
    expect((await status()).connection).toMatchObject({ obsVersion: '29.0.2', websocketVersion: '5.1.0' });
    const settings = await invoke('settings:get');
    expect(settings).toMatchObject({ ok: true, value: { obs: { ...SAVE, hasPassword: true } } });
  });

  it.each([
    ['port', { ...SAVE, port: 0 }, 'between 1 and 65535'],
    ['port', { ...SAVE, port: 70_000 }, 'between 1 and 65535'],
    ['port', { ...SAVE, port: '4455' }, ''],
    ['port', { ...SAVE, port: 4455.5 }, 'whole number'],
    ['host', { ...SAVE, host: 'ws://127.0.0.1:4455' }, 'without http://'],
    ['host', { ...SAVE, host: '127.0.0.1/../admin' }, 'without http://'],
    ['host', { ...SAVE, host: '   ' }, 'enter the address'],
    ['host', { ...SAVE, host: '127.0.0.1:4455' }, 'port in its own field'],
    ['host', { ...SAVE, host: '[127.0.0.1]' }, 'IPv6'],
    ['host', { ...SAVE, host: 'fe80::1::2' }, 'port in its own field'],
    ['host', { ...SAVE, host: 'a'.repeat(254) }, '253'],
    ['password', { ...SAVE, password: 'p'.repeat(201) }, '200'],
  ])('refuses a bad %s (%j), naming it, and keeps the connection as it was', async (field, input, reason) => {
    const error = await refusal('obs:save-connection', input);
    expect(error.code).toBe('InvalidArgument');
    expect(error.details?.field).toBe(field);
    expect(String(error.details?.reasons)).toContain(reason);
    expect(await kind()).toBe('connected');
    expect(await invoke('settings:get')).toMatchObject({ value: { obs: { ...SAVE, hasPassword: true } } });
  });

  it('takes an IPv6 address, bracketed or not', async () => {
    for (const host of ['::1', '[::1]']) {
      expect(await invoke('obs:save-connection', { ...SAVE, host })).toMatchObject({ ok: true });
    }
    expect(await invoke('settings:get')).toMatchObject({ value: { obs: { host: '[::1]' } } });
    await invoke('obs:save-connection', { ...SAVE, password: PASSWORD });
    await vi.waitFor(async () => expect(await kind()).toBe('connected'));
  });

  it('refuses fields it does not know rather than saving them', async () => {
    const error = await refusal('obs:save-connection', { ...SAVE, url: 'ws://evil.example:1' });
    expect(error.code).toBe('InvalidArgument');
    expect(await kind()).toBe('connected');
  });

  it('says "wrong password" for a wrong one, and stops asking OBS', async () => {
    await invoke('obs:save-connection', { ...SAVE, password: 'not-the-password' });
    await vi.waitFor(async () => expect(await kind()).toBe('wrong-password'));
    const error = await refusal('obs:set-scene', { sceneName: 'Scene' });
    expect(error.code).toBe('ObsWrongPassword');
    await invoke('obs:save-connection', { ...SAVE, password: PASSWORD });
    await vi.waitFor(async () => expect(await kind()).toBe('connected'));
  });

  it('is "not reachable" as soon as OBS dies, and reconnects by itself when OBS is back', async () => {
    obs.kill();
    expect(await kind()).toBe('unreachable');
    expect((await refusal('obs:output', { output: 'stream', action: 'start' })).code).toBe('ObsNotConnected');
    obs.start();
    await vi.waitFor(async () => expect(await kind()).toBe('connected'), { timeout: 5000 });
    expect(pushed.some((view) => (view as ObsView).connection?.kind === 'unreachable')).toBe(true);
  });

  it('never lets the password out: not in the settings or secrets files, a push, an answer or a log line', () => {
    for (const name of readdirSync(dir)) {
      if (name.endsWith('.json')) {
        expect(readFileSync(join(dir, name), 'utf8'), name).not.toContain(PASSWORD);
      }
    }
    expect(JSON.stringify(pushed)).not.toContain(PASSWORD);
    expect(JSON.stringify(app.snapshot())).not.toContain(PASSWORD);
    expect(logs.join('\n')).not.toContain(PASSWORD);
  });
});
