/**
 * The OBS actions in the built app (create-app.ts): the journal's events at start fire nothing, not even
 * when a replayed redemption's update arrives live afterwards, while a new live redemption does.
 */
import { randomBytes } from 'node:crypto';
import { rmSync } from 'node:fs';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { resolveConfig } from '../../../../electron/app/config';
import { createApp, type GreenroomApp } from '../../../../electron/app/create-app';
import { openSettings, type SettingsStore } from '../../../../electron/app/settings';
import { AdjustableClock } from '../../../../electron/core/clock';
import { MemorySecretStore, SECRET_KEYS } from '../../../../electron/secrets/secret-store';
import type { KickEvent } from '../../../../electron/webhooks/events/types';
import { obsActionsSettingsSchema } from '../../../../shared/obs-actions';
import { FakeObs } from '../../../helpers/fake-obs';
import { tempDir } from '../../../helpers/temp-dir';
import { PASSWORD } from '../obs/obs-connection-fixtures';
import { liveStatus, redemption } from '../obs/obs-actions-fixtures';
import { createFakeWebhookPort, type FakeWebhookPort, seedFakeWebhookJournal } from './fake-webhook-port';

describe('the OBS actions in the app, across a restart', () => {
  let dir: string;
  let settings: SettingsStore;
  let port: FakeWebhookPort;
  let app: GreenroomApp;
  let fake: FakeObs;

  async function start(earlier: KickEvent[]): Promise<void> {
    await seedFakeWebhookJournal(dir, earlier);
    port = createFakeWebhookPort(dir);
    const secretStore = new MemorySecretStore();
    await secretStore.set(SECRET_KEYS.obsPassword, PASSWORD);
    const config = resolveConfig({
      env: { GREENROOM_KICK_API_URL: 'http://127.0.0.1:9', GREENROOM_KICK_AUTH_URL: 'http://127.0.0.1:9' },
      settings: settings.values(),
      storedClientSecret: 'secret',
      dataDir: dir,
    });
    app = await createApp(config, {
      clock: new AdjustableClock(),
      openExternal: () => Promise.reject(new Error('no browser here')),
      secretStore,
      webhooks: () => port,
      log: () => undefined,
      dataDir: dir,
      settings,
      obsLink: fake.link,
    });
    await app.start();
    await vi.waitFor(async () => {
      const status = await app.router.invoke('obs:status', []);
      expect(status).toMatchObject({ ok: true, value: { connection: { kind: 'connected' } } });
    });
  }

  /** Every change Greenroom asked OBS for. */
  const changes = () => fake.requests.filter((r) => r.type.startsWith('Set')).map((r) => r.type);

  beforeEach(async () => {
    dir = tempDir('greenroom-app-obs-actions-');
    settings = openSettings(dir, { randomBytes });
    settings.setClientId('01CLIENT');
    settings.setObs({ enabled: true, host: '127.0.0.1', port: 4455 });
    settings.update({
      obsActions: obsActionsSettingsSchema.parse({
        rewards: [
          { rewardId: 'rw-confetti', rewardTitle: 'Confetti!', source: 'Confetti', scene: 'Main', seconds: 10 },
        ],
        goLive: { enabled: true, scene: 'Main' },
      }),
    });
    fake = new FakeObs();
    const studio = fake.link();
    await studio.connect({ url: fake.url, password: PASSWORD });
    await studio.call('CreateScene', { sceneName: 'Main' });
    await studio.call('CreateInput', {
      sceneName: 'Main',
      inputName: 'Confetti',
      inputKind: 'color_source_v3',
      sceneItemEnabled: false,
    });
    fake.requests.length = 0;
  });
  afterEach(async () => {
    await app.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('fires nothing for the journal at start, nor for a replayed redemption’s later update', async () => {
    await start([redemption('red-old', 'rw-confetti'), liveStatus(true)]);
    expect(changes()).toEqual([]);
    // The old redemption's update first, then a new one: had the update acted, its change would come first.
    port.publish(redemption('red-old', 'rw-confetti', 'accepted'));
    port.publish(redemption('red-new', 'rw-confetti'));
    await vi.waitFor(() => expect(changes()).toContain('SetSceneItemEnabled'));
    await new Promise((resolve) => setImmediate(resolve));
    expect(changes()).toEqual(['SetSceneItemEnabled']);
    expect(fake.requests.filter((r) => r.type === 'GetSceneItemId')).toHaveLength(1);
  });
});
