/**
 * The real link against a scripted obs-websocket server: what the real OBS cannot be made to do at will
 * (never answer, answer in the wrong shape, close mid-request, refuse the subprotocol). The behaviour both
 * share with the real OBS is the contract's (test/integration/obs/obs-link-contract.ts).
 */
import { describe, expect, it } from 'vitest';
import { ObsLinkError, ObsRequestError } from '../../../../electron/obs/obs-link';
import { createObsWebSocketLink, OBS_LINK_REQUEST_TIMEOUT_MS } from '../../../../electron/obs/obs-websocket-link';
import { rejectionOf } from '../../../integration/obs/obs-link-fixtures';
import { ManualScheduler } from '../../../helpers/manual-scheduler';
import { scriptedObs, type ScriptedObsOptions } from './obs-websocket-link-fixtures';

const PASSWORD = 'scripted-password';

async function connectedLink(options: ScriptedObsOptions = {}) {
  const server = await scriptedObs(options);
  const scheduler = new ManualScheduler();
  const lines: string[] = [];
  const link = createObsWebSocketLink({ setTimer: scheduler.setTimer, log: (line) => void lines.push(line) });
  const identity = await link.connect({ url: server.url, password: PASSWORD });
  return { server, scheduler, link, identity, lines };
}

describe('the real ObsLink against a scripted obs-websocket', () => {
  it('identifies with the password and reads the versions from GetVersion', async () => {
    const { identity, server } = await connectedLink();
    expect(identity).toEqual({ obsVersion: '29.0.2', websocketVersion: '5.1.0', rpcVersion: 1 });
    expect(server.requests.map((r) => r.type)).toEqual(['GetVersion']);
  });

  it('connects without a password where OBS asks for none', async () => {
    const server = await scriptedObs({ password: null });
    const link = createObsWebSocketLink({ setTimer: new ManualScheduler().setTimer });
    await expect(link.connect({ url: server.url, password: null })).resolves.toMatchObject({ rpcVersion: 1 });
  });

  it('refuses a wrong or missing password as wrong-password with 4009, the password in no message', async () => {
    const server = await scriptedObs();
    for (const password of ['hunter2-wrong', null]) {
      const error = await rejectionOf(createObsWebSocketLink().connect({ url: server.url, password }));
      expect(error).toBeInstanceOf(ObsLinkError);
      expect(error).toMatchObject({ failure: 'wrong-password', closeCode: 4009 });
      expect(JSON.stringify({ message: (error as Error).message, cause: String((error as Error).cause) })).not.toMatch(
        /hunter2|scripted-password/,
      );
    }
  });

  it('calls any other close code at the handshake unreachable, keeping the code', async () => {
    const server = await scriptedObs({ silentHello: true });
    const link = createObsWebSocketLink({ setTimer: new ManualScheduler().setTimer });
    const error = rejectionOf(link.connect({ url: server.url, password: PASSWORD }));
    await expect.poll(() => server.sockets().length).toBe(1);
    server.closeAll(4010); // obs-websocket's "unsupported RPC version"
    expect(await error).toMatchObject({ failure: 'unreachable', closeCode: 4010 });
  });

  it('gives up a connect that never gets a Hello as unreachable when its timer fires', async () => {
    const server = await scriptedObs({ silentHello: true });
    const scheduler = new ManualScheduler();
    const link = createObsWebSocketLink({ setTimer: scheduler.setTimer });
    const error = rejectionOf(link.connect({ url: server.url, password: PASSWORD }));
    expect(scheduler.fireOnly()).toBe(10_000);
    expect(await error).toMatchObject({ failure: 'unreachable' });
    expect(scheduler.pending.size).toBe(0);
  });

  it('refuses a server that does not speak the JSON subprotocol as unreachable', async () => {
    const server = await scriptedObs({ noSubprotocol: true });
    const error = await rejectionOf(createObsWebSocketLink().connect({ url: server.url, password: PASSWORD }));
    expect(error).toMatchObject({ failure: 'unreachable' });
  });

  it("turns OBS's refusal into an ObsRequestError with OBS's code and comment", async () => {
    const { link } = await connectedLink({
      answer: (type) =>
        type === 'SetCurrentProgramScene' ? { ok: false, code: 600, comment: 'No source' } : undefined,
    });
    const error = await rejectionOf(link.call('SetCurrentProgramScene', { sceneName: 'Nope' }));
    expect(error).toBeInstanceOf(ObsRequestError);
    expect(error).toMatchObject({
      code: 600,
      requestType: 'SetCurrentProgramScene',
      message: expect.stringContaining('No source'),
    });
  });

  it('fails a request OBS never answers as unreachable after 5 s, and clears its timer on an answer', async () => {
    const { link, scheduler } = await connectedLink({ answer: (type) => (type === 'GetStats' ? 'silent' : undefined) });
    const error = rejectionOf(link.call('GetStats'));
    expect(scheduler.fireOnly()).toBe(OBS_LINK_REQUEST_TIMEOUT_MS);
    expect(await error).toMatchObject({ failure: 'unreachable', message: expect.stringContaining('GetStats') });
    await link.call('GetVersion');
    expect(scheduler.pending.size).toBe(0);
  });

  it.each([
    ['a missing field', { cpuUsage: 1 }, 'memoryUsage'],
    ['a field of the wrong type', { ...stats(), cpuUsage: 'high' }, 'cpuUsage'],
    ['a negative count', { ...stats(), outputSkippedFrames: -5 }, 'outputSkippedFrames'],
    ['no data at all', undefined, '(response)'],
  ])('refuses a GetStats answer with %s, naming the field', async (_, data, field) => {
    const { link } = await connectedLink({ answer: (type) => (type === 'GetStats' ? { ok: true, data } : undefined) });
    const error = await rejectionOf(link.call('GetStats'));
    expect(error).toBeInstanceOf(ObsRequestError);
    expect((error as Error).message).toContain(field);
  });

  it('passes fields it does not read through, and answers a request without data with undefined', async () => {
    const { link } = await connectedLink({
      answer: (type) =>
        type === 'GetStats'
          ? { ok: true, data: { ...stats(), newInObs31: true } }
          : type === 'CreateScene'
            ? { ok: true }
            : undefined,
    });
    expect(await link.call('GetStats')).toMatchObject({ cpuUsage: 3, newInObs31: true });
    expect(await link.call('CreateScene', { sceneName: 'A' })).toBeUndefined();
  });

  it('fails a request in flight when OBS goes away, and tells onClosed once', async () => {
    const { link, server } = await connectedLink({
      answer: (type) => (type === 'GetSceneList' ? 'silent' : undefined),
    });
    const closes: ObsLinkError[] = [];
    link.onClosed((e) => void closes.push(e));
    const inFlight = rejectionOf(link.call('GetSceneList'));
    await new Promise((resolve) => setImmediate(resolve));
    server.closeAll();
    expect(await inFlight).toMatchObject({ failure: 'unreachable' });
    await expect.poll(() => closes.length).toBe(1);
    expect(closes[0]).toMatchObject({ failure: 'unreachable' });
    expect(await rejectionOf(link.call('GetStats'))).toMatchObject({ failure: 'unreachable' });
  });

  it('closes when asked without telling onClosed, failing a request still in flight', async () => {
    const { link, server } = await connectedLink({
      answer: (type) => (type === 'GetSceneList' ? 'silent' : undefined),
    });
    const closes: ObsLinkError[] = [];
    link.onClosed((e) => void closes.push(e));
    const inFlight = rejectionOf(link.call('GetSceneList'));
    await link.close();
    expect(await inFlight).toMatchObject({ failure: 'unreachable' });
    await expect.poll(() => server.sockets().length).toBe(0);
    expect(closes).toEqual([]);
  });

  it('delivers events in the known shape and drops (and logs) one that is not', async () => {
    const { link, server, lines } = await connectedLink();
    const scenes: string[] = [];
    link.on('CurrentProgramSceneChanged', (e) => void scenes.push(e.sceneName));
    server.event('CurrentProgramSceneChanged', { sceneName: 42 });
    server.event('CurrentProgramSceneChanged', { sceneName: 'Ad break' });
    await expect.poll(() => scenes).toEqual(['Ad break']);
    expect(lines).toEqual([expect.stringContaining('CurrentProgramSceneChanged')]);
  });

  it('is used for one session: a second connect is refused', async () => {
    const { link, server } = await connectedLink();
    await link.close();
    await expect(link.connect({ url: server.url, password: PASSWORD })).rejects.toThrow(/one session/);
  });
});

function stats() {
  return {
    cpuUsage: 3,
    memoryUsage: 200,
    availableDiskSpace: 5000,
    activeFps: 30,
    renderSkippedFrames: 0,
    renderTotalFrames: 10,
    outputSkippedFrames: 0,
    outputTotalFrames: 0,
  };
}
