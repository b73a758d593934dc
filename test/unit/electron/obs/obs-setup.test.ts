/**
 * "Set up OBS for Kick" (docs/obs.md#set-up-obs-for-kick) against the in-memory OBS: Kick's server and key
 * into OBS, read back in main; the chosen overlays as browser sources, skipping those already there; the
 * addresses to add by hand where OBS has no browser source. The key is in nothing that leaves main:
 * result, log lines, errors.
 */
import { describe, expect, it } from 'vitest';
import { addInput, FakeObs, KEY, OVERLAY, SCENE, SERVER, setup } from './obs-setup-fixtures';

describe('Set up OBS for Kick: the stream settings', () => {
  it('writes Kick server and key as a custom RTMP service and reads them back', async () => {
    const { obs, settle, sent } = await setup();
    const { result, seen } = await settle({ sceneName: SCENE, overlays: [] });
    expect(result?.streamSettings).toBe('written');
    expect(obs.studio.streamService).toEqual({
      streamServiceType: 'rtmp_custom',
      streamServiceSettings: { server: SERVER, key: KEY },
    });
    expect(sent()).toEqual(['GetStreamServiceSettings', 'SetStreamServiceSettings', 'GetStreamServiceSettings']);
    expect(seen).not.toContain(KEY);
  });

  it('says already-set, and writes nothing, when OBS already streams to this server with this key', async () => {
    const obs = new FakeObs();
    obs.studio.streamService = {
      streamServiceType: 'rtmp_custom',
      streamServiceSettings: { server: SERVER, key: KEY, use_auth: false },
    };
    const { settle, sent } = await setup({ obs });
    expect((await settle({ sceneName: SCENE, overlays: [] })).result?.streamSettings).toBe('already-set');
    expect(sent()).toEqual(['GetStreamServiceSettings']);
  });

  it('writes again when only the key differs (a key Kick regenerated)', async () => {
    const obs = new FakeObs();
    obs.studio.streamService = {
      streamServiceType: 'rtmp_custom',
      streamServiceSettings: { server: SERVER, key: 'x' },
    };
    const { settle } = await setup({ obs });
    expect((await settle({ sceneName: SCENE, overlays: [] })).result?.streamSettings).toBe('written');
    expect(obs.studio.streamService.streamServiceSettings.key).toBe(KEY);
  });

  it('fails when OBS does not keep what was written, adding nothing, the key in no error or log', async () => {
    const { settle, sent } = await setup({
      obs: new FakeObs({ browserSource: true }),
      // An OBS that answers the write but keeps its old settings.
      caller: (link) => ({
        call: (type, ...data) =>
          type === 'SetStreamServiceSettings' ? Promise.resolve(undefined) : link.call(type, ...data),
      }),
    });
    const { error, seen } = await settle({ sceneName: SCENE, overlays: ['alerts'] });
    expect(error?.code).toBe('ObsRequestFailed');
    expect(error?.message).toContain('read back');
    expect(seen).not.toContain(KEY);
    expect(sent()).not.toContain('CreateInput');
  });

  it('without streamkey:read, names what to allow and asks OBS for nothing', async () => {
    const { settle, sent } = await setup({ scopes: ['channel:read'] });
    const { error } = await settle({ sceneName: SCENE, overlays: ['alerts'] });
    expect(error?.code).toBe('MissingScope');
    expect(error?.details).toEqual({ scopes: ['streamkey:read'] });
    expect(sent()).toEqual([]);
  });

  it('keeps the key out of an error, and of the log, even when OBS echoes it back', async () => {
    const obs = new FakeObs();
    obs.failNext('SetStreamServiceSettings', 400, `bad settings {"key":"${KEY}"}`);
    const { settle, logs } = await setup({ obs });
    const { error, seen } = await settle({ sceneName: SCENE, overlays: [] });
    expect(error?.code).toBe('ObsRequestFailed');
    expect(error?.message).toContain('SetStreamServiceSettings failed (400)');
    expect(seen).not.toContain(KEY);
    expect(logs.some((line) => line.includes('set-up for Kick failed'))).toBe(true);
  });
});

describe('Set up OBS for Kick: the overlays', () => {
  it('adds each chosen overlay as a 1920×1080 browser source with its address', async () => {
    const obs = new FakeObs({ browserSource: true });
    const { settle, sceneInputs } = await setup({ obs });
    const { result, seen } = await settle({ sceneName: SCENE, overlays: ['chat', 'alerts'] });
    expect(result).toEqual({
      streamSettings: 'written',
      added: ['Alert box', 'Chat box'],
      skipped: [],
      updated: [],
      addByHand: [],
    });
    expect(obs.studio.inputs.get('Greenroom Alert box')).toEqual({
      kind: 'browser_source',
      settings: { url: OVERLAY('alerts'), width: 1920, height: 1080 },
    });
    expect(sceneInputs()).toEqual(['Greenroom Alert box', 'Greenroom Chat box']);
    expect(seen).not.toContain(KEY);
  });

  it('skips an overlay already in the scene by address, points its own old source at the new one', async () => {
    const obs = new FakeObs({ browserSource: true });
    await addInput(obs, SCENE, 'My alerts', OVERLAY('alerts'));
    await addInput(obs, SCENE, 'Greenroom Chat box', 'http://127.0.0.1:1/old');
    const { settle, sceneInputs } = await setup({ obs });
    const first = await settle({ sceneName: SCENE, overlays: ['alerts', 'chat', 'goal'] });
    expect(first.result).toMatchObject({ added: ['Goal bar'], skipped: ['Alert box'], updated: ['Chat box'] });
    expect(obs.studio.inputs.get('Greenroom Chat box')?.settings.url).toBe(OVERLAY('chat'));
    const second = await settle({ sceneName: SCENE, overlays: ['alerts', 'chat', 'goal'] });
    expect(second.result).toMatchObject({ streamSettings: 'already-set', added: [], updated: [] });
    expect(second.result?.skipped).toEqual(['Alert box', 'Chat box', 'Goal bar']);
    expect(sceneInputs()).toEqual(['My alerts', 'Greenroom Chat box', 'Greenroom Goal bar']);
  });

  it('gives the source a free name when an input or a scene elsewhere already has it', async () => {
    const obs = new FakeObs({ browserSource: true });
    obs.studio.scenes.push({ name: 'Starting', items: [], idCounter: 0 });
    obs.studio.scenes.push({ name: 'Greenroom Chat box', items: [], idCounter: 0 });
    await addInput(obs, 'Starting', 'Greenroom Alert box', 'http://127.0.0.1:1/old');
    const { settle, sceneInputs } = await setup({ obs });
    expect((await settle({ sceneName: SCENE, overlays: ['alerts', 'chat'] })).result?.added).toEqual([
      'Alert box',
      'Chat box',
    ]);
    expect(sceneInputs()).toEqual(['Greenroom Alert box 2', 'Greenroom Chat box 2']);
  });

  it('where OBS has no browser source, adds nothing and lists each overlay address to add by hand', async () => {
    const { settle, sent } = await setup();
    const { result } = await settle({ sceneName: SCENE, overlays: ['alerts', 'events'] });
    expect(result).toEqual({
      streamSettings: 'written',
      added: [],
      skipped: [],
      updated: [],
      addByHand: [
        { name: 'Alert box', url: OVERLAY('alerts') },
        { name: 'Recent events', url: OVERLAY('events') },
      ],
    });
    expect(sent()).not.toContain('CreateInput');
  });

  it('refuses an overlay that does not exist, by name, before touching OBS', async () => {
    const { settle, sent } = await setup();
    const { error } = await settle({ sceneName: SCENE, overlays: ['alerts', '__proto__'] });
    expect(error?.code).toBe('Validation');
    expect(error?.message).toContain('__proto__ is not an overlay');
    expect(sent()).toEqual([]);
  });

  it('says in OBS words when the scene is gone, the key kept out', async () => {
    const { settle } = await setup({ obs: new FakeObs({ browserSource: true }) });
    const { error, seen } = await settle({ sceneName: 'Gone', overlays: ['alerts'] });
    expect(error?.code).toBe('ObsRequestFailed');
    expect(error?.message).toContain('No source was found by the name of `Gone`');
    expect(seen).not.toContain(KEY);
  });
});
