/**
 * What "Set up OBS for Kick" writes to the log, in words a streamer reading it understands
 * (docs/obs.md#set-up-obs-for-kick): no internal values ("already-set"), no "overlay(s)".
 */
import { describe, expect, it } from 'vitest';
import { FakeObs, KEY, SCENE, SERVER, setup } from './obs-setup-fixtures';

describe('Set up OBS for Kick: the log', () => {
  it('says the stream settings were already set in words, not as a value', async () => {
    const obs = new FakeObs();
    obs.studio.streamService = {
      streamServiceType: 'rtmp_custom',
      streamServiceSettings: { server: SERVER, key: KEY },
    };
    const { settle, logs } = await setup({ obs });
    await settle({ sceneName: SCENE, overlays: [] });
    expect(logs.find((l) => l.includes('stream settings'))).toMatch(/^obs: stream settings already set \(/);
    expect(logs.join('\n')).not.toContain('already-set');
  });

  it.each([
    [['alerts'] as const, '1 overlay to add by hand'],
    [['alerts', 'events'] as const, '2 overlays to add by hand'],
  ])('counts the overlays to add by hand in their number (%o)', async (overlays, words) => {
    const { settle, logs } = await setup();
    await settle({ sceneName: SCENE, overlays: [...overlays] });
    expect(logs.join('\n')).toContain(`no browser source; ${words}`);
    expect(logs.join('\n')).not.toContain('(s)');
  });

  it('counts the overlays added in their number', async () => {
    const { settle, logs } = await setup({ obs: new FakeObs({ browserSource: true }) });
    await settle({ sceneName: SCENE, overlays: ['alerts'] });
    expect(logs.join('\n')).toContain(`obs: added 1 overlay to "${SCENE}"`);
    expect(logs.join('\n')).not.toContain('(s)');
  });
});
