/**
 * The app's OBS connection against Debian's real OBS (docs/obs.md#connection-states): createApp in sandbox
 * mode with its default link (obs-websocket-js), driven through the router as a panel drives it. The right
 * password connects; a wrong one is "wrong password" and is not retried; OBS killed is "not reachable" within
 * 5 s while the app goes on answering; OBS restarted is connected again with no save. Skipped with one line
 * where OBS is not installed.
 */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { resolveConfig } from '../../../electron/app/config';
import { createApp, type GreenroomApp } from '../../../electron/app/create-app';
import { openSettings } from '../../../electron/app/settings';
import { systemClock } from '../../../electron/core/clock';
import { MemorySecretStore } from '../../../electron/secrets/secret-store';
import type { Result } from '../../../shared/errors';
import type { ObsView } from '../../../shared/obs';
import { type ObsProcess, obsSkipReason, startObs } from '../../helpers/obs-process';
import { tempDir } from '../../helpers/temp-dir';
import { createSandboxWebhookPort } from '../../integration/app/sandbox-webhook-port';

const skip = obsSkipReason();
const suite = skip === null ? describe : describe.skip;

let obs: ObsProcess;
let app: GreenroomApp;
const logs: string[] = [];
/** Every obs:changed push with when it arrived. */
const pushes: { at: number; view: ObsView }[] = [];

async function invoke<T>(channel: string, arg?: unknown): Promise<Result<T>> {
  return (await app.router.invoke(channel, arg === undefined ? [] : [arg])) as Result<T>;
}

async function state(): Promise<ObsView['connection']> {
  const result = await invoke<ObsView>('obs:status');
  if (!result.ok) {
    throw new Error(result.error.message);
  }
  return result.value.connection;
}

const save = (password: string) =>
  invoke('obs:save-connection', { enabled: true, host: '127.0.0.1', port: obs.port, password });

suite(skip ?? 'the app against a real OBS', () => {
  beforeAll(async () => {
    obs = await startObs();
    const dir = tempDir('greenroom-obs-e2e-');
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
      secretStore: new MemorySecretStore(),
      webhooks: (deps) => createSandboxWebhookPort(deps),
      log: (line) => logs.push(line),
      dataDir: dir,
      settings,
    });
    app.events.on('obs:changed', (view) => pushes.push({ at: Date.now(), view }));
    await app.start();
  }, 60_000);

  afterAll(async () => {
    await app?.stop();
    await obs?.close();
  }, 30_000);

  it('connects with the right password and reads OBS', async () => {
    expect((await save(obs.password!)).ok).toBe(true);
    await vi.waitFor(async () => expect((await state()).kind).toBe('connected'), { timeout: 15_000 });
    expect(await state()).toMatchObject({ obsVersion: expect.stringMatching(/^\d+\.\d+/), websocketVersion: /^5\./ });
    await vi.waitFor(
      async () =>
        expect((await invoke<ObsView>('obs:status')) as { value: ObsView }).toMatchObject({
          value: { stats: { fps: expect.any(Number) }, scenes: { current: expect.any(String) } },
        }),
      { timeout: 10_000 },
    );
  });

  it('says "wrong password" for a wrong one, and does not knock again', async () => {
    await save('certainly-not-the-password');
    await vi.waitFor(async () => expect((await state()).kind).toBe('wrong-password'), { timeout: 15_000 });
    const refusals = logs.filter((line) => line.includes('refused the password')).length;
    expect((await invoke('obs:set-scene', { sceneName: 'Scene' })).ok).toBe(false);
    await save(obs.password!);
    await vi.waitFor(async () => expect((await state()).kind).toBe('connected'), { timeout: 15_000 });
    expect(logs.filter((line) => line.includes('refused the password'))).toHaveLength(refusals);
  });

  it('is "not reachable" within 5 s of OBS being killed, and the app answers meanwhile', async () => {
    const killedAt = Date.now();
    await obs.kill();
    await vi.waitFor(async () => expect((await state()).kind).toBe('unreachable'), { timeout: 5_000 });
    const told = pushes.find((p) => p.at >= killedAt && p.view.connection.kind === 'unreachable');
    expect(told!.at - killedAt).toBeLessThan(5_000);
    // OBS being down holds nothing else up: the router answers at once.
    const snapshot = await invoke('app:snapshot');
    expect(snapshot.ok).toBe(true);
    const last = (await invoke<ObsView>('obs:status')) as { value: ObsView };
    // A reading OBS sent just before it died may land after the signal, but never after the app said OBS was
    // gone: nothing is read from a dead OBS.
    expect(last.value.stats?.at).toBeLessThanOrEqual(told!.at);
  });

  it('is connected again by itself once OBS restarts', async () => {
    await obs.restart();
    await vi.waitFor(async () => expect((await state()).kind).toBe('connected'), { timeout: 15_000 });
  });
});
