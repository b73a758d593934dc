import { describe, expect, it } from 'vitest';
import { OBS_CONNECT_TIMEOUT_MS, obsUrl } from '../../../../electron/obs/obs-connection';
import { isAppError } from '../../../../shared/errors';
import { flush, hangingLink, harness, TARGET } from './obs-connection-fixtures';

async function codeOf(promise: Promise<unknown>): Promise<{ code: string; details: unknown }> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  if (!isAppError(error)) {
    throw new Error(`expected an AppError, got ${String(error)}`);
  }
  return { code: error.code, details: error.details };
}

describe('the OBS connection', () => {
  it('is not set up until configured, and refuses requests meanwhile', async () => {
    const h = harness();
    expect(h.connection.state()).toEqual({ kind: 'not-set-up' });
    expect((await codeOf(h.connection.call('GetVersion'))).code).toBe('ObsNotConnected');
    expect(h.obs.requests).toEqual([]);
  });

  it('connects at once when configured and says which OBS answered', async () => {
    const h = harness();
    h.connection.configure(TARGET);
    expect(h.connection.state()).toEqual({ kind: 'connecting', attempt: 1 });
    await flush();
    expect(h.connection.state()).toEqual({
      kind: 'connected',
      obsVersion: '29.0.2',
      websocketVersion: '5.1.0',
      since: h.clock.now,
    });
    await expect(h.connection.call('GetCurrentProgramScene')).resolves.toEqual({ currentProgramSceneName: 'Scene' });
    expect(h.scheduler.pending.size).toBe(0);
  });

  it('stops at a refused password, retries nothing, and connects once saved again', async () => {
    const h = harness();
    h.connection.configure({ ...TARGET, password: 'not-it' });
    await flush();
    expect(h.connection.state()).toEqual({ kind: 'wrong-password' });
    expect(h.scheduler.pending.size).toBe(0);
    expect((await codeOf(h.connection.call('GetStats'))).code).toBe('ObsWrongPassword');
    h.connection.configure(TARGET);
    await flush();
    expect(h.connection.state().kind).toBe('connected');
    expect(h.states).toEqual(['connecting', 'wrong-password', 'connecting', 'connected']);
  });

  it('treats a missing password OBS asks for as the wrong one', async () => {
    const h = harness();
    h.connection.configure({ ...TARGET, password: null });
    await flush();
    expect(h.connection.state()).toEqual({ kind: 'wrong-password' });
  });

  it('is unreachable while nothing answers, retrying 1, 2, 4, then every 5 s, without flickering', async () => {
    const h = harness();
    h.obs.kill();
    h.connection.configure(TARGET);
    await flush();
    const first = h.connection.state();
    expect(first).toMatchObject({ kind: 'unreachable', since: h.clock.now, nextTryAt: h.clock.now + 1000 });
    expect(first.kind === 'unreachable' && first.detail).toContain('Nothing answered');
    const delays: number[] = [];
    for (const ms of [1000, 2000, 4000, 5000, 5000]) {
      h.fire(ms);
      expect(h.connection.state()).toMatchObject({ kind: 'unreachable', nextTryAt: null });
      await flush();
      delays.push(...h.retryDelays());
    }
    expect(delays).toEqual([2000, 4000, 5000, 5000, 5000]);
    // One episode: `since` stays when it began, and the state never went back to "connecting".
    expect(h.connection.state()).toMatchObject({ kind: 'unreachable', since: 1_000_000 });
    expect(h.states.filter((kind) => kind === 'connecting')).toHaveLength(1);
    h.obs.start();
    h.fire(5000);
    await flush();
    expect(h.connection.state().kind).toBe('connected');
    expect(h.scheduler.pending.size).toBe(0);
  });

  it('is unreachable the moment OBS dies, and back by itself when OBS restarts', async () => {
    const h = harness();
    const sessions: (string | null)[] = [];
    h.connection.onSession((link) => sessions.push(link ? 'open' : null));
    h.connection.configure(TARGET);
    await flush();
    h.obs.kill();
    expect(h.connection.state()).toMatchObject({ kind: 'unreachable', nextTryAt: h.clock.now + 1000 });
    expect((await codeOf(h.connection.call('GetStats'))).code).toBe('ObsNotConnected');
    h.fire(1000);
    await flush();
    // Still down: the next try doubles.
    expect(h.retryDelays()).toEqual([2000]);
    h.obs.start();
    h.fire(2000);
    await flush();
    expect(h.connection.state().kind).toBe('connected');
    expect(sessions).toEqual(['open', null, 'open']);
    expect(h.obs.openLinks).toBe(1);
    expect(h.logs.filter((line) => line.includes('lost'))).toHaveLength(1);
  });

  it('hears OBS quitting (ExitStarted, then the close) as unreachable too', async () => {
    const h = harness();
    h.connection.configure(TARGET);
    await flush();
    h.obs.quit();
    expect(h.connection.state().kind).toBe('unreachable');
  });

  it('gives up a connect that hangs after its time limit, closing that link', async () => {
    const hanging = hangingLink();
    const h = harness({ linkFactory: () => hanging.link });
    h.connection.configure(TARGET);
    await flush();
    expect(h.connection.state().kind).toBe('connecting');
    h.fire(OBS_CONNECT_TIMEOUT_MS);
    await flush();
    expect(h.connection.state()).toMatchObject({ kind: 'unreachable', detail: expect.stringContaining('10 s') });
    expect(hanging.closed()).toBe(true);
    expect(h.retryDelays()).toEqual([1000]);
  });

  it('drops a session whose request OBS never answers, as if it closed', async () => {
    const h = harness({ requestTimeoutMs: 3000 });
    h.connection.configure(TARGET);
    await flush();
    const stuck = h.connection.request('GetStats', [], 3000);
    // The fake answers on the next turn; the time limit fires first here.
    h.fire(3000);
    expect((await codeOf(stuck)).code).toBe('ObsNotConnected');
    expect(h.connection.state()).toMatchObject({ kind: 'unreachable', detail: expect.stringContaining('GetStats') });
  });

  it("says OBS refused a request with OBS's own code, and stays connected", async () => {
    const h = harness();
    h.connection.configure(TARGET);
    await flush();
    h.obs.failNext('SetCurrentProgramScene', 600, 'No source was found');
    const refused = await codeOf(h.connection.call('SetCurrentProgramScene', { sceneName: 'Gone' }));
    expect(refused).toEqual({
      code: 'ObsRequestFailed',
      details: { obsCode: 600, request: 'SetCurrentProgramScene' },
    });
    expect(h.connection.state().kind).toBe('connected');
  });

  it('closes the old session before connecting with new settings, and ignores a late answer', async () => {
    const h = harness();
    h.connection.configure(TARGET);
    h.connection.configure({ ...TARGET, password: 'new-and-wrong' });
    await flush();
    expect(h.connection.state()).toEqual({ kind: 'wrong-password' });
    expect(h.obs.openLinks).toBe(0);
    h.connection.configure(TARGET);
    await flush();
    h.connection.configure(TARGET);
    await flush();
    expect(h.obs.openLinks).toBe(1);
  });

  it('goes back to "not set up" when turned off, closing the session and cancelling retries', async () => {
    const h = harness();
    h.obs.kill();
    h.connection.configure(TARGET);
    await flush();
    expect(h.scheduler.pending.size).toBe(1);
    h.connection.configure(null);
    expect(h.connection.state()).toEqual({ kind: 'not-set-up' });
    expect(h.scheduler.pending.size).toBe(0);
  });

  it('passes OBS events from every session to listeners added before it opened', async () => {
    const h = harness();
    const scenes: string[] = [];
    h.connection.onEvent('CurrentProgramSceneChanged', ({ sceneName }) => scenes.push(sceneName));
    h.connection.configure(TARGET);
    await flush();
    await h.connection.call('CreateScene', { sceneName: 'BRB' });
    await h.connection.call('SetCurrentProgramScene', { sceneName: 'BRB' });
    await flush();
    h.obs.kill();
    h.obs.start();
    h.fire(1000);
    await flush();
    await h.connection.call('SetCurrentProgramScene', { sceneName: 'Scene' });
    await flush();
    expect(scenes).toEqual(['BRB', 'Scene']);
  });

  it('leaves nothing running once stopped', async () => {
    const h = harness();
    h.connection.configure(TARGET);
    await flush();
    await h.connection.stop();
    expect(h.obs.openLinks).toBe(0);
    expect(h.scheduler.pending.size).toBe(0);
    h.connection.configure(TARGET);
    await flush();
    expect(h.obs.openLinks).toBe(0);
  });

  it('puts an IPv6 address in brackets in the URL', () => {
    expect(obsUrl('::1', 4455)).toBe('ws://[::1]:4455');
    expect(obsUrl('[::1]', 4455)).toBe('ws://[::1]:4455');
    expect(obsUrl('obs.local', 4456)).toBe('ws://obs.local:4456');
  });
});
