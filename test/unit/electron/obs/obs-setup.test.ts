/**
 * "Set up OBS for Kick" (docs/obs.md#set-up-obs-for-kick): Kick's server and key into OBS, read back in
 * main; the chosen overlays as browser sources, skipping those already there; the addresses to add by
 * hand where OBS has no browser source. The key is in nothing that leaves main: result, log lines, errors.
 */
import { describe, expect, it } from 'vitest';
import { KEY, OVERLAY, SERVER, FakeObs, setup } from './obs-setup-fixtures';

const SCENE = 'Scene';

describe('Set up OBS for Kick: the stream settings', () => {
  it('writes Kick server and key as a custom RTMP service and reads them back', async () => {
    const { obs, settle } = setup();
    const { result, seen } = await settle({ sceneName: SCENE, overlays: [] });
    expect(result?.streamSettings).toBe('written');
    expect(obs.service).toEqual({
      streamServiceType: 'rtmp_custom',
      streamServiceSettings: { server: SERVER, key: KEY },
    });
    const types = obs.calls.map((c) => c.type);
    expect(types).toEqual(['GetStreamServiceSettings', 'SetStreamServiceSettings', 'GetStreamServiceSettings']);
    expect(seen).not.toContain(KEY);
  });

  it('says already-set, and writes nothing, when OBS already streams to this server with this key', async () => {
    const obs = new FakeObs();
    obs.service = {
      streamServiceType: 'rtmp_custom',
      streamServiceSettings: { server: SERVER, key: KEY, use_auth: false },
    };
    const { settle } = setup({ obs });
    const { result } = await settle({ sceneName: SCENE, overlays: [] });
    expect(result?.streamSettings).toBe('already-set');
    expect(obs.writes()).toEqual([]);
  });

  it('writes again when only the key differs (a key Kick regenerated)', async () => {
    const obs = new FakeObs();
    obs.service = { streamServiceType: 'rtmp_custom', streamServiceSettings: { server: SERVER, key: 'sk_old' } };
    const { settle } = setup({ obs });
    expect((await settle({ sceneName: SCENE, overlays: [] })).result?.streamSettings).toBe('written');
    expect(obs.service.streamServiceSettings.key).toBe(KEY);
  });

  it('fails when OBS does not keep what was written, without the key in the error or the log', async () => {
    const obs = new FakeObs();
    obs.ignoreServiceWrites = true;
    const { settle } = setup({ obs });
    const { error, seen } = await settle({ sceneName: SCENE, overlays: ['alerts'] });
    expect(error?.code).toBe('ObsRequestFailed');
    expect(error?.message).toContain('read back');
    expect(seen).not.toContain(KEY);
    expect(obs.calls.map((c) => c.type)).not.toContain('CreateInput');
  });

  it('without streamkey:read, names what to allow and asks OBS for nothing', async () => {
    const { obs, settle } = setup({ scopes: ['channel:read'] });
    const { error } = await settle({ sceneName: SCENE, overlays: ['alerts'] });
    expect(error?.code).toBe('MissingScope');
    expect(error?.details).toEqual({ scopes: ['streamkey:read'] });
    expect(obs.calls).toEqual([]);
  });

  it('keeps the key out of an error even when OBS echoes it back', async () => {
    const obs = new FakeObs();
    obs.refuse = { type: 'SetStreamServiceSettings', code: 400, comment: `bad settings {"key":"${KEY}"}` };
    const { settle, logs } = setup({ obs });
    const { error, seen } = await settle({ sceneName: SCENE, overlays: [] });
    expect(error?.code).toBe('ObsRequestFailed');
    expect(error?.message).toContain('SetStreamServiceSettings failed (400)');
    expect(seen).not.toContain(KEY);
    expect(logs.some((line) => line.includes('set-up for Kick failed'))).toBe(true);
    expect(logs.join('\n')).not.toContain(KEY);
  });
});

describe('Set up OBS for Kick: the overlays', () => {
  it('adds each chosen overlay as a 1920×1080 browser source with its address', async () => {
    const { obs, settle } = setup({ obs: new FakeObs().withBrowserSource() });
    const { result, seen } = await settle({ sceneName: SCENE, overlays: ['chat', 'alerts'] });
    expect(result).toEqual({
      streamSettings: 'written',
      added: ['Alert box', 'Chat box'],
      skipped: [],
      addByHand: [],
    });
    expect(obs.inputs.get('Greenroom Alert box')).toEqual({
      kind: 'browser_source',
      settings: { url: OVERLAY('alerts'), width: 1920, height: 1080 },
    });
    expect(obs.scenes.get(SCENE)).toEqual(['Greenroom Alert box', 'Greenroom Chat box']);
    expect(seen).not.toContain(KEY);
  });

  it('skips an overlay already in the scene by address or by name, and adds it once on a second run', async () => {
    const obs = new FakeObs().withBrowserSource();
    obs.add(SCENE, 'My alerts', 'browser_source', { url: OVERLAY('alerts') });
    obs.add(SCENE, 'Greenroom Chat box', 'browser_source', { url: 'http://127.0.0.1:1/old' });
    const { settle } = setup({ obs });
    const first = await settle({ sceneName: SCENE, overlays: ['alerts', 'chat', 'goal'] });
    expect(first.result?.added).toEqual(['Goal bar']);
    expect(first.result?.skipped).toEqual(['Alert box', 'Chat box']);
    const second = await settle({ sceneName: SCENE, overlays: ['alerts', 'chat', 'goal'] });
    expect(second.result?.added).toEqual([]);
    expect(second.result?.streamSettings).toBe('already-set');
    expect(obs.scenes.get(SCENE)).toHaveLength(3);
  });

  it('gives the source a free name when another scene already has an input of that name', async () => {
    const obs = new FakeObs().withBrowserSource();
    obs.scenes.set('Starting', []);
    obs.add('Starting', 'Greenroom Alert box', 'browser_source', { url: OVERLAY('alerts') });
    const { settle } = setup({ obs });
    expect((await settle({ sceneName: SCENE, overlays: ['alerts'] })).result?.added).toEqual(['Alert box']);
    expect(obs.scenes.get(SCENE)).toEqual(['Greenroom Alert box 2']);
  });

  it('where OBS has no browser source, adds nothing and lists each overlay address to add by hand', async () => {
    const { obs, settle } = setup();
    const { result } = await settle({ sceneName: SCENE, overlays: ['alerts', 'events'] });
    expect(result).toEqual({
      streamSettings: 'written',
      added: [],
      skipped: [],
      addByHand: [
        { name: 'Alert box', url: OVERLAY('alerts') },
        { name: 'Recent events', url: OVERLAY('events') },
      ],
    });
    expect(obs.calls.map((c) => c.type)).not.toContain('CreateInput');
  });

  it('refuses an overlay that does not exist, by name, before touching OBS', async () => {
    const { obs, settle } = setup();
    const { error } = await settle({ sceneName: SCENE, overlays: ['alerts', '__proto__'] });
    expect(error?.code).toBe('Validation');
    expect(error?.message).toContain('__proto__ is not an overlay');
    expect(obs.calls).toEqual([]);
  });

  it('says in OBS words when the scene is gone, the key kept out', async () => {
    const { settle } = setup({ obs: new FakeObs().withBrowserSource() });
    const { error, seen } = await settle({ sceneName: 'Gone', overlays: ['alerts'] });
    expect(error?.code).toBe('ObsRequestFailed');
    expect(error?.message).toContain('No source was found by the name of `Gone`');
    expect(seen).not.toContain(KEY);
  });
});
