/**
 * A hostile or broken OBS, through the app's real OBS part and the real link: whatever size OBS's names,
 * lists, comments and versions, and however many events it sends, the panel, the errors and the log get
 * them cut and capped (docs/obs.md#obs-wire-facts).
 */
import { describe, expect, it, vi } from 'vitest';
import {
  OBS_SCENES_MAX,
  OBS_SOURCES_MAX,
  POLL_SOON_MAX,
  POLL_SOON_WINDOW_MS,
  SCENES_COALESCE_MS,
  SCENES_MIN_INTERVAL_MS,
} from '../../../../electron/obs/obs-monitor';
import { OBS_TEXT_MAX } from '../../../../electron/obs/obs-wire';
import { OBS_NAME_MAX, type ObsView } from '../../../../shared/obs';
import { flush } from '../obs/obs-connection-fixtures';
import { hostileApp, idleObs, SteppedScheduler } from './app-obs-hostile-fixtures';

const MB = 1024 * 1024;
const size = (value: unknown): number => JSON.stringify(value).length;
const longest = (lines: string[]): number => Math.max(0, ...lines.map((line) => line.length));
const wait = { timeout: 15_000, interval: 20 };

async function connectedApp(...args: Parameters<typeof hostileApp>) {
  const t = await hostileApp(...args);
  await vi.waitFor(() => expect(t.app.view().connection.kind).toBe('connected'), wait);
  return t;
}

describe('a hostile OBS', () => {
  it('sends 50,000 scenes, a 10 MB scene name on air and 20,000 sources: the panel gets 500 of each, cut', async () => {
    const big = '<img src=x onerror=alert(1)>' + 'A'.repeat(10 * MB);
    const scenes = Array.from({ length: 50_000 }, (_, i) => ({ sceneName: `s${i}`, sceneIndex: i + 1 }));
    // At the bottom of OBS's list: the cap would leave it out, but the scene on air is always listed.
    scenes.push({ sceneName: big, sceneIndex: 0 });
    const sceneItems = Array.from({ length: 20_000 }, (_, i) => ({
      sceneItemId: i + 1,
      sourceName: `${i} ${'B'.repeat(1000)}`,
      sceneItemEnabled: true,
    }));
    const t = await connectedApp(
      idleObs((type) => {
        if (type === 'GetSceneList') {
          return { ok: true, data: { currentProgramSceneName: big, scenes } };
        }
        if (type === 'GetSceneItemList') {
          return { ok: true, data: { sceneItems } };
        }
        return undefined;
      }),
    );
    await vi.waitFor(() => expect(t.app.view().scenes).not.toBeNull(), wait);
    const view = t.app.view().scenes!;
    expect(view.current).toBe(big.slice(0, OBS_NAME_MAX));
    expect(view.scenes).toHaveLength(OBS_SCENES_MAX);
    expect(view.scenes).toContain(view.current);
    expect(view.moreScenes).toBe(50_001 - OBS_SCENES_MAX);
    expect(view.sources).toHaveLength(OBS_SOURCES_MAX);
    expect(view.moreSources).toBe(20_000 - OBS_SOURCES_MAX);
    expect(longest([...view.scenes, ...view.sources.map((s) => s.name)])).toBeLessThanOrEqual(OBS_NAME_MAX);
    // OBS lists items bottom first; the panel top first.
    expect(view.sources[0]!.sceneItemId).toBe(20_000);
    expect(Math.max(...t.pushed.map(size))).toBeLessThan(300_000);

    // A source toggled in that scene, named in full by OBS, still shows at once.
    t.server.event('SceneItemEnableStateChanged', { sceneName: big, sceneItemId: 20_000, sceneItemEnabled: false });
    await vi.waitFor(() => expect(t.app.view().scenes!.sources[0]!.enabled).toBe(false), wait);
  }, 30_000);

  it('sends the same scene name twice, and names alike in their first 200 characters: each scene once', async () => {
    const stem = 'S'.repeat(OBS_NAME_MAX);
    const names = ['Main', 'BRB', 'Main', `${stem}-one`, `${stem}-two`];
    const t = await connectedApp(
      idleObs((type) => {
        if (type === 'GetSceneList') {
          const scenes = names.map((sceneName, i) => ({ sceneName, sceneIndex: names.length - i }));
          return { ok: true, data: { currentProgramSceneName: 'Main', scenes } };
        }
        if (type === 'GetSceneItemList') {
          const item = { sceneItemId: 7, sourceName: 'Camera', sceneItemEnabled: true };
          return { ok: true, data: { sceneItems: [item, item, { ...item, sceneItemId: 8 }] } };
        }
        return undefined;
      }),
    );
    await vi.waitFor(() => expect(t.app.view().scenes).not.toBeNull(), wait);
    expect(t.app.view().scenes).toEqual({
      current: 'Main',
      scenes: ['Main', 'BRB', stem],
      sources: [
        { sceneItemId: 8, name: 'Camera', enabled: true },
        { sceneItemId: 7, name: 'Camera', enabled: true },
      ],
    });
  }, 30_000);

  it('refuses a scene switch with a 5 MB comment: the error the panel gets is short', async () => {
    const t = await connectedApp(
      idleObs((type) =>
        type === 'SetCurrentProgramScene' ? { ok: false, code: 600, comment: 'x'.repeat(5_000_000) } : undefined,
      ),
    );
    const error = (await t.app.setScene('Main').catch((e: unknown) => e)) as Error;
    expect(error.message).toMatch(/SetCurrentProgramScene failed \(600\): x+…$/);
    expect(error.message.length).toBeLessThan(OBS_TEXT_MAX + 100);
    expect(size(error)).toBeLessThan(2_000);
  }, 30_000);

  it('refuses every stats read with a 5 MB comment: the log line is short', async () => {
    const t = await connectedApp(
      idleObs((type) => (type === 'GetStats' ? { ok: false, code: 600, comment: 'y'.repeat(5 * MB) } : undefined)),
    );
    await vi.waitFor(() => expect(t.logs.join('\n')).toContain('could not read the stats'), wait);
    expect(longest(t.logs)).toBeLessThan(OBS_TEXT_MAX + 100);
  }, 30_000);

  it('says its version is 1 MB long: the connected state and the log keep 200 characters', async () => {
    const obsVersion = 'V'.repeat(MB);
    const t = await connectedApp(
      idleObs((type) =>
        type === 'GetVersion'
          ? { ok: true, data: { obsVersion, obsWebSocketVersion: 'W'.repeat(MB), rpcVersion: 1 } }
          : undefined,
      ),
    );
    const connection = t.app.view().connection as Extract<ObsView['connection'], { kind: 'connected' }>;
    expect(connection.obsVersion).toBe(`${'V'.repeat(OBS_TEXT_MAX - 1)}…`);
    expect(connection.websocketVersion).toHaveLength(OBS_TEXT_MAX);
    expect(longest(t.logs)).toBeLessThan(3 * OBS_TEXT_MAX);
    expect(Math.max(...t.pushed.map(size))).toBeLessThan(2_000);
  }, 30_000);

  it('sends 10,000 malformed events: one log line for each kind, then the rest counted once', async () => {
    const t = await connectedApp(idleObs());
    const before = t.logs.length;
    for (let i = 0; i < 10_000; i++) {
      t.server.event('SceneItemEnableStateChanged', { sceneName: 1, sceneItemId: 'x'.repeat(1000) });
      t.server.event('StreamStateChanged', { outputActive: 'yes' });
    }
    // Answered after every event above was handled (one socket, in order).
    await t.app.setScene('Main');
    const flood = t.logs.slice(before);
    expect(flood).toHaveLength(2);
    expect(flood[0]).toMatch(/^OBS sent SceneItemEnableStateChanged in a shape Greenroom does not know/);
    expect(flood[1]).toMatch(/^OBS sent StreamStateChanged in a shape Greenroom does not know/);
    await t.app.stop();
    expect(t.logs).toContain('OBS sent 19998 more events in a shape Greenroom does not know; ignored');
  }, 30_000);

  it('announces a scene change 200 times every 100 ms: the scenes are read at most twice a second', async () => {
    const scheduler = new SteppedScheduler();
    let reads = 0;
    const t = await connectedApp(
      idleObs((type) => {
        if (type !== 'GetSceneList') {
          return undefined;
        }
        reads += 1;
        return {
          ok: true,
          data: { currentProgramSceneName: null, scenes: [{ sceneName: `read ${reads}`, sceneIndex: 0 }] },
        };
      }),
      scheduler,
    );
    await vi.waitFor(() => expect(t.app.view().scenes?.scenes).toEqual(['read 1']), wait);
    const steps = 30;
    for (let step = 0; step < steps; step++) {
      for (let i = 0; i < 200; i++) {
        t.server.event('SceneListChanged', { scenes: [] });
      }
      // Answered after the events and any scene read asked before it (one socket, in order).
      await t.app.setScene('Main');
      await vi.waitFor(() => expect(t.app.view().scenes?.scenes).toEqual([`read ${reads}`]), wait);
      await flush();
      scheduler.advance(SCENES_COALESCE_MS);
    }
    const seconds = (steps * SCENES_COALESCE_MS) / 1000;
    expect(reads - 1).toBeGreaterThanOrEqual(Math.floor((seconds * 1000) / SCENES_MIN_INTERVAL_MS) - 1);
    expect(reads - 1).toBeLessThanOrEqual(Math.ceil((seconds * 1000) / SCENES_MIN_INTERVAL_MS) + 1);
  }, 60_000);
});

describe('a hostile OBS flooding output events', () => {
  it('says 200 times every 100 ms that the stream started: the stats are read a few times a second', async () => {
    const scheduler = new SteppedScheduler();
    let polls = 0;
    const t = await connectedApp(
      idleObs((type) => {
        if (type === 'GetStats') {
          polls += 1;
        }
        return undefined;
      }),
      scheduler,
    );
    await vi.waitFor(() => expect(t.app.view().stats).not.toBeNull(), wait);
    const first = polls;
    const steps = 30;
    for (let step = 0; step < steps; step++) {
      for (let i = 0; i < 200; i++) {
        t.server.event('StreamStateChanged', { outputActive: true, outputState: 'OBS_WEBSOCKET_OUTPUT_STARTED' });
      }
      // Answered after the events and any poll asked before it (one socket, in order).
      await t.app.setScene('Main');
      await flush();
      await flush();
      scheduler.advance(100);
    }
    // 3 s: at most POLL_SOON_MAX in each second, and a deferred one at each window's end.
    expect(polls - first).toBeGreaterThanOrEqual(3);
    expect(polls - first).toBeLessThanOrEqual(((POLL_SOON_MAX + 1) * steps * 100) / POLL_SOON_WINDOW_MS + 1);
  }, 60_000);
});
