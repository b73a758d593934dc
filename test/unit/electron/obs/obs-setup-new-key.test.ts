/**
 * "Set up OBS for Kick" after "New overlay URLs" (docs/obs.md#set-up-obs-for-kick), against the in-memory
 * OBS with a browser source: the overlay key changed, so the browser sources Greenroom added (or any that
 * open the same overlay page) hold an address the panel server now refuses. Set-up points them at the
 * current address and says so, rather than calling them "already there"; sources of other pages are left
 * alone, and the addresses to add by hand carry the current key.
 */
import { describe, expect, it } from 'vitest';
import type { OverlayKind } from '../../../../shared/overlays';
import { setupLine } from '../../../../renderer/src/lib/obs-setup-words';
import { addInput, FakeObs, KEY, SCENE, setup } from './obs-setup-fixtures';

const PANEL = 'http://127.0.0.1:4870';
const at = (kind: string, key: string) => `${PANEL}/overlay/${kind}?key=${key}`;

/** The overlay addresses as the app gives them: one record, its key changed in place as "New overlay URLs" does. */
function overlayUrls(key: string): Record<OverlayKind, string | null> {
  return { alerts: at('alerts', key), chat: at('chat', key), goal: at('goal', key), events: at('events', key) };
}
function newKey(urls: Record<OverlayKind, string | null>, key: string): void {
  Object.assign(urls, overlayUrls(key));
}

describe('Set up OBS for Kick after the overlay key changed', () => {
  it('points the sources it added at the new address, says so, and adds nothing twice', async () => {
    const obs = new FakeObs({ browserSource: true });
    const urls = overlayUrls('ovk_old');
    const { settle, sceneInputs, sent } = await setup({ obs, urls });
    expect((await settle({ sceneName: SCENE, overlays: ['alerts', 'chat'] })).result?.added).toEqual([
      'Alert box',
      'Chat box',
    ]);
    newKey(urls, 'ovk_new');
    const { result, seen } = await settle({ sceneName: SCENE, overlays: ['alerts', 'chat'] });
    expect(result).toEqual({
      streamSettings: 'already-set',
      added: [],
      skipped: [],
      updated: ['Alert box', 'Chat box'],
      addByHand: [],
    });
    // The address changes; the size (and anything the streamer set in OBS) stays.
    expect(obs.studio.inputs.get('Greenroom Alert box')?.settings).toEqual({
      url: at('alerts', 'ovk_new'),
      width: 1920,
      height: 1080,
    });
    expect(obs.studio.inputs.get('Greenroom Chat box')?.settings.url).toBe(at('chat', 'ovk_new'));
    expect(sceneInputs()).toEqual(['Greenroom Alert box', 'Greenroom Chat box']);
    expect(sent().filter((type) => type === 'SetInputSettings')).toHaveLength(2);
    expect(seen).not.toContain(KEY);
    expect(setupLine(result!, SCENE)).toBe(
      'OBS was already set to stream to Kick. Updated Alert box and Chat box in OBS to their new address.',
    );
    const again = await settle({ sceneName: SCENE, overlays: ['alerts', 'chat'] });
    expect(again.result).toMatchObject({ added: [], updated: [], skipped: ['Alert box', 'Chat box'] });
  });

  it("updates a source the streamer named that opens the same overlay page; leaves other pages' sources alone", async () => {
    const obs = new FakeObs({ browserSource: true });
    await addInput(obs, SCENE, 'My alerts', at('alerts', 'ovk_old'));
    await addInput(obs, SCENE, 'Tip jar', 'https://tips.example/alert-box?key=ovk_old');
    await addInput(obs, SCENE, 'Greenroom Chat box fan page', 'https://fan.example/chat');
    const { settle, sceneInputs } = await setup({ obs, urls: overlayUrls('ovk_new') });
    const { result } = await settle({ sceneName: SCENE, overlays: ['alerts'] });
    expect(result).toMatchObject({ added: [], skipped: [], updated: ['Alert box'] });
    expect(obs.studio.inputs.get('My alerts')?.settings.url).toBe(at('alerts', 'ovk_new'));
    expect(obs.studio.inputs.get('Tip jar')?.settings.url).toBe('https://tips.example/alert-box?key=ovk_old');
    expect(obs.studio.inputs.get('Greenroom Chat box fan page')?.settings.url).toBe('https://fan.example/chat');
    expect(sceneInputs()).toEqual(['My alerts', 'Tip jar', 'Greenroom Chat box fan page']);
  });

  it('updates its old source in another scene as well as adding the overlay to the chosen one', async () => {
    const obs = new FakeObs({ browserSource: true });
    obs.studio.scenes.push({ name: 'Starting', items: [], idCounter: 0 });
    await addInput(obs, 'Starting', 'Greenroom Alert box', at('alerts', 'ovk_old'));
    const { settle, sceneInputs } = await setup({ obs, urls: overlayUrls('ovk_new') });
    const { result } = await settle({ sceneName: SCENE, overlays: ['alerts'] });
    expect(result).toMatchObject({ added: ['Alert box'], skipped: [], updated: ['Alert box'] });
    expect(obs.studio.inputs.get('Greenroom Alert box')?.settings.url).toBe(at('alerts', 'ovk_new'));
    expect(sceneInputs()).toEqual(['Greenroom Alert box 2']);
    expect(obs.studio.inputs.get('Greenroom Alert box 2')?.settings.url).toBe(at('alerts', 'ovk_new'));
  });

  it('where OBS has no browser source, lists the addresses with the current key, not the first one', async () => {
    const urls = overlayUrls('ovk_old');
    const { settle } = await setup({ urls });
    await settle({ sceneName: SCENE, overlays: ['alerts'] });
    newKey(urls, 'ovk_new');
    const { result } = await settle({ sceneName: SCENE, overlays: ['alerts'] });
    expect(result?.addByHand).toEqual([{ name: 'Alert box', url: at('alerts', 'ovk_new') }]);
  });
});
