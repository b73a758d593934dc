/**
 * `obs-monitor-cpu-pct`: the CPU of the built app's process (out/main/panel.js, sandbox mode, as a streamer
 * runs it without Electron) while it watches a real OBS that is streaming, over 60 s, as a share of one core.
 * The app is connected to OBS through the panel socket (`obs:save-connection`), as the Settings form does,
 * and reads OBS every 2 s (docs/obs.md#stream-health-warnings). OBS streams to an RTMP ingest in this
 * process (the sandbox's ingest code, run here so the media bytes are not counted as the app's), and records
 * when the ingest is unavailable, so OBS is busy either way. Only the app's own process is measured, from
 * /proc/<pid>/stat: OBS, the ingest and this process are not.
 */
import { OBSWebSocket } from 'obs-websocket-js/json';
import { startRtmpIngest, type RtmpIngest } from '../sandbox/ingest/rtmp-ingest';
import { obsSkipReason, startObs, type ObsProcess } from '../test/helpers/obs-process';
import type { ObsView } from '../shared/obs';
import { ensureBuilt, startAppProcess, type AppProcess } from './lib/app-process';
import { connectPanel, type PanelClient } from './lib/panel-client';
import { processCpuMs } from './lib/process-cpu';
import { round } from './lib/stats';
import { measuredFigure } from './lib/figures';
import type { BenchFigure, BenchResult } from './types';

/** This figure, declared for `bench/obs.ts`'s list. */
export const obsMonitorCpuFigures: BenchFigure[] = [
  { name: 'obs-monitor-cpu-pct', unit: '%', target: { op: '<=', value: 0.5 } },
];

const WATCH_MS = Number(process.env.GREENROOM_BENCH_OBS_WATCH_MS ?? 60_000);
/** Let the connection settle and the first reads pass before the minute is counted. */
const WARM_UP_MS = 5_000;

const note = (line: string): void => console.error(`obs: ${line}`);
const wait = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** Waits until the panel has been pushed an OBS view that `ok` accepts. */
function viewWhere(panel: PanelClient, ok: (view: ObsView) => boolean, timeoutMs = 30_000): Promise<ObsView> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      off();
      reject(new Error(`no matching obs:changed within ${timeoutMs} ms`));
    }, timeoutMs);
    const off = panel.onEvent((event, payload) => {
      if (event === 'obs:changed' && ok(payload as ObsView)) {
        clearTimeout(timer);
        off();
        resolve(payload as ObsView);
      }
    });
  });
}

/** Makes OBS busy: streaming to the ingest here, or recording where no ingest can start. */
async function busy(obs: ObsProcess, ingest: RtmpIngest | null): Promise<'stream' | 'record'> {
  const client = new OBSWebSocket();
  await client.connect(obs.url, obs.password ?? undefined);
  try {
    if (ingest) {
      await client.call('SetStreamServiceSettings', {
        streamServiceType: 'rtmp_custom',
        streamServiceSettings: { server: ingest.url, key: 'bench-obs-monitor' },
      });
      await client.call('StartStream');
      return 'stream';
    }
    await client.call('StartRecord');
    return 'record';
  } finally {
    await client.disconnect();
  }
}

export async function obsMonitorCpu(): Promise<BenchResult[]> {
  const result = (value: number): BenchResult[] => [measuredFigure(obsMonitorCpuFigures, 'obs-monitor-cpu-pct', value)];
  const skip = obsSkipReason();
  if (skip) {
    note(skip);
    return result(Number.NaN);
  }
  ensureBuilt(note);
  let obs: ObsProcess | undefined;
  let ingest: RtmpIngest | null = null;
  let app: AppProcess | undefined;
  let panel: PanelClient | undefined;
  try {
    ingest = await startRtmpIngest({ publish: () => ({ ok: true, end: () => undefined }) }).catch((error: unknown) => {
      note(`the RTMP ingest did not start (${String(error)}); OBS records instead`);
      return null;
    });
    obs = await startObs();
    app = await startAppProcess();
    panel = await connectPanel(app.panelUrl);
    const saved = await panel.invoke('obs:save-connection', [
      { enabled: true, host: '127.0.0.1', port: obs.port, password: obs.password ?? '' },
    ]);
    if (!saved.ok) {
      throw new Error(`obs:save-connection was refused: ${JSON.stringify(saved.error)}`);
    }
    await viewWhere(panel, (view) => view.connection.kind === 'connected');
    const output = await busy(obs, ingest);
    const seen = await viewWhere(panel, (view) => (view.stats?.[output].bitrateKbps ?? 0) > 0);
    note(`OBS is ${output === 'stream' ? 'streaming' : 'recording'} at ${seen.stats?.[output].bitrateKbps} kbit/s`);
    await wait(WARM_UP_MS);
    const pid = app.child.pid;
    const before = processCpuMs(pid);
    const t0 = performance.now();
    let pushes = 0;
    const off = panel.onEvent((event) => {
      if (event === 'obs:changed') {
        pushes++;
      }
    });
    await wait(WATCH_MS);
    const after = processCpuMs(pid);
    const elapsed = performance.now() - t0;
    off();
    const last = (await panel.invoke<ObsView>('obs:status')).value;
    if (before === null || after === null || last?.connection.kind !== 'connected') {
      note(`could not measure (connection: ${last?.connection.kind ?? 'unknown'})`);
      return result(Number.NaN);
    }
    const ingested = ingest?.sessions().reduce((sum, s) => sum + s.receivedBytes, 0) ?? 0;
    note(
      `${pushes} obs:changed pushes in ${round(elapsed / 1000)} s; ${output} ${last.stats?.[output].active ? 'active' : 'inactive'}` +
        (ingest ? `; the ingest received ${round(ingested / 1e6, 1)} MB` : ''),
    );
    return result(round(((after - before) / elapsed) * 100, 2));
  } finally {
    await panel?.close().catch(() => undefined);
    await app?.stop().catch(() => undefined);
    await obs?.close().catch(() => undefined);
    await ingest?.close().catch(() => undefined);
  }
}
