/**
 * The ObsLink contract's outputs part: stream settings, stats, recording and a stream that cannot reach
 * its server (registered by obs-link-contract.ts, inside its suite).
 */
import { expect, it } from 'vitest';
import { type ContractContext, expectRequestError, nextEvent } from './obs-link-fixtures';

export function outputTests(ctx: ContractContext): void {
  it('keeps custom RTMP stream settings and reads them back', async () => {
    const streamServiceSettings = {
      server: 'rtmp://127.0.0.1:1935/kick',
      key: ctx.fresh('sk_contract').replace(' ', '_'),
    };
    await ctx.link.call('SetStreamServiceSettings', { streamServiceType: 'rtmp_custom', streamServiceSettings });
    const read = await ctx.link.call('GetStreamServiceSettings');
    expect(read.streamServiceType).toBe('rtmp_custom');
    expect(read.streamServiceSettings).toMatchObject(streamServiceSettings);
    // The same service type again: OBS applies the new fields over the old ones.
    const server = 'rtmp://127.0.0.1:1936/kick';
    await ctx.link.call('SetStreamServiceSettings', {
      streamServiceType: 'rtmp_custom',
      streamServiceSettings: { server },
    });
    expect((await ctx.link.call('GetStreamServiceSettings')).streamServiceSettings).toMatchObject({
      server,
      key: streamServiceSettings.key,
    });
  });

  it('tries a stream to a server where nothing listens: STARTING, then STOPPED, never active', async () => {
    ctx.subject.refuseIngest();
    const server = ctx.subject.unusedUrl.replace(/^ws:/, 'rtmp:') + '/app';
    await ctx.link.call('SetStreamServiceSettings', {
      streamServiceType: 'rtmp_custom',
      streamServiceSettings: { server, key: 'sk_nothing_listens' },
    });
    const states: string[] = [];
    const off = ctx.link.on('StreamStateChanged', (e) => void states.push(`${e.outputState}:${e.outputActive}`));
    const stopped = nextEvent(ctx.link, 'StreamStateChanged', (e) => e.outputState === 'OBS_WEBSOCKET_OUTPUT_STOPPED');
    await ctx.link.call('StartStream');
    await stopped;
    off();
    expect(states).toEqual(['OBS_WEBSOCKET_OUTPUT_STARTING:false', 'OBS_WEBSOCKET_OUTPUT_STOPPED:false']);
    expect(await ctx.link.call('GetStreamStatus')).toMatchObject({ outputActive: false });
  });

  it('reports stats, the stream and the recording in the shapes Greenroom reads', async () => {
    const stats = await ctx.link.call('GetStats');
    for (const value of Object.values(stats)) {
      expect(value).toEqual(expect.any(Number));
    }
    expect(stats.availableDiskSpace).toBeGreaterThan(0);
    expect(await ctx.link.call('GetStreamStatus')).toMatchObject({ outputActive: false, outputReconnecting: false });
    expect(await ctx.link.call('GetRecordStatus')).toMatchObject({ outputActive: false, outputPaused: false });
    await expectRequestError(ctx.link.call('StopStream'), 501);
  });

  it('records: STARTING then STARTED, then STOPPING then STOPPED with the file', async () => {
    const states: string[] = [];
    const off = ctx.link.on('RecordStateChanged', (e) => void states.push(`${e.outputState}:${e.outputActive}`));
    const started = nextEvent(ctx.link, 'RecordStateChanged', (e) => e.outputState === 'OBS_WEBSOCKET_OUTPUT_STARTED');
    await ctx.link.call('StartRecord');
    await started;
    expect(await ctx.link.call('GetRecordStatus')).toMatchObject({ outputActive: true });
    const stopped = nextEvent(ctx.link, 'RecordStateChanged', (e) => e.outputState === 'OBS_WEBSOCKET_OUTPUT_STOPPED');
    const result = await ctx.link.call('StopRecord');
    await stopped;
    off();
    expect(result?.outputPath).toMatch(/\.mkv$/);
    expect(states).toEqual([
      'OBS_WEBSOCKET_OUTPUT_STARTING:false',
      'OBS_WEBSOCKET_OUTPUT_STARTED:true',
      'OBS_WEBSOCKET_OUTPUT_STOPPING:false',
      'OBS_WEBSOCKET_OUTPUT_STOPPED:false',
    ]);
    await expectRequestError(ctx.link.call('StopRecord'), 501);
  });
}
