/**
 * "Set up OBS for Kick" as the handlers reach it: the app's OBS (electron/app/app-obs.ts) over a connection
 * to the in-memory OBS, with set-up wired as create-app wires it. OBS's refusal arrives wrapped by the
 * connection, and still reads in OBS's words with the key taken out; without a connection nothing is read.
 */
import { randomBytes } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { type AppObs, createAppObs } from '../../../../electron/app/app-obs';
import { openSettings } from '../../../../electron/app/settings';
import { setUpObsForKick } from '../../../../electron/obs/obs-setup';
import { MemorySecretStore } from '../../../../electron/secrets/secret-store';
import { ManualScheduler } from '../../../helpers/manual-scheduler';
import { tempDir } from '../../../helpers/temp-dir';
import { flush, PASSWORD } from './obs-connection-fixtures';
import { FakeObs, KEY, OVERLAY, SCENE, SERVER } from './obs-setup-fixtures';

let running: AppObs | null = null;
afterEach(async () => {
  await running?.stop();
  running = null;
});

function build(obs: FakeObs) {
  const logs: string[] = [];
  let keyReads = 0;
  const app = createAppObs({
    settings: openSettings(tempDir('greenroom-obs-setup-'), { randomBytes }),
    secretStore: new MemorySecretStore(),
    linkFactory: obs.link,
    clock: { now: () => 5_000 },
    setTimer: new ManualScheduler().setTimer,
    random: () => 0,
    log: (line) => logs.push(line),
    kickLive: () => null,
    onKickLiveChange: () => () => undefined,
    health: () => ({ lag: { samples: 0, p50Ms: null, p95Ms: null, state: 'unknown', delayMs: null } }),
    push: () => undefined,
    setupForKick: (api, input) => {
      const streamKey = () => {
        keyReads++;
        return Promise.resolve({ url: SERVER, key: KEY });
      };
      const overlayUrls = () => ({ alerts: OVERLAY('alerts'), chat: null, goal: null, events: null });
      return setUpObsForKick({ obs: () => api, streamKey, overlayUrls, log: (line) => logs.push(line) }, input);
    },
  });
  running = app;
  return { app, logs, keyReads: () => keyReads };
}

async function connect(app: AppObs): Promise<void> {
  app.start();
  await app.saveConnection({ enabled: true, host: '127.0.0.1', port: 4455, password: PASSWORD });
  await flush();
  await flush();
  expect(app.view().connection.kind).toBe('connected');
}

describe("Set up OBS for Kick through the app's OBS", () => {
  it('writes the settings and adds the alert box through the connection', async () => {
    const obs = new FakeObs({ browserSource: true });
    const { app, logs } = build(obs);
    await connect(app);
    const result = await app.setupForKick({ sceneName: SCENE, overlays: ['alerts'] });
    expect(result).toEqual({
      streamSettings: 'written',
      added: ['Alert box'],
      skipped: [],
      updated: [],
      addByHand: [],
    });
    expect(obs.studio.streamService.streamServiceSettings).toEqual({ server: SERVER, key: KEY });
    expect(logs.join('\n')).not.toContain(KEY);
  });

  it("says OBS's refusal in OBS's words, not the connection's wrapping, with the key taken out", async () => {
    const obs = new FakeObs();
    const { app, logs } = build(obs);
    await connect(app);
    obs.failNext('SetStreamServiceSettings', 402, `service refused key ${KEY}`);
    const error = (await app.setupForKick({ sceneName: SCENE, overlays: [] }).catch((e: unknown) => e)) as {
      code: string;
      message: string;
      cause?: unknown;
    };
    expect(error.code).toBe('ObsRequestFailed');
    expect(error.message).toBe('OBS: SetStreamServiceSettings failed (402): service refused key •••');
    expect(error.cause).toBeUndefined();
    expect(logs.join('\n')).not.toContain(KEY);
  });

  it('without a connection, says OBS is not connected and never reads the key', async () => {
    const { app, keyReads } = build(new FakeObs());
    app.start();
    await flush();
    await expect(app.setupForKick({ sceneName: SCENE, overlays: ['alerts'] })).rejects.toMatchObject({
      code: 'ObsNotConnected',
    });
    expect(keyReads()).toBe(0);
  });
});
