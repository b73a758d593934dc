/**
 * `obs-action-latency-ms`: the p95, over 50 ad breaks, from Kick accepting an ad break Greenroom ran to OBS
 * reporting the switch to the ad-break scene (docs/obs.md#obs-actions-on-events). The whole app runs as a
 * streamer runs it without Electron (out/main/panel.js, its embedded sandbox as Kick) beside Debian's real
 * OBS, and each break is run over the panel socket (`ads:run`), as the Ads tab's button does.
 *
 * Kick sends no webhook for ad breaks: a break starts when Kick accepts one Greenroom runs, so the clock
 * starts at that acceptance, the sandbox's own record of it (the break's `created_at`, read back through its
 * admin API and moved onto this machine's clock). It stops when a test-side obs-websocket client hears OBS's
 * `CurrentProgramSceneChanged` to the ad scene. Between breaks this client puts OBS back on "Main" itself,
 * so the next break switches again; the sandbox's clock is moved past each break and its ad-break limit
 * lifted, as Kick's would not allow 50 breaks in an hour.
 */
import { OBSWebSocket } from 'obs-websocket-js/json';
import { request } from 'undici';
import { obsSkipReason, startObs, type ObsProcess } from '../test/helpers/obs-process';
import type { ObsView } from '../shared/obs';
import { DEFAULT_OBS_ACTIONS } from '../shared/obs-actions';
import { ensureBuilt, startAppProcess, type AdminApi, type AppProcess } from './lib/app-process';
import { connectPanel, signInOverPanel, type PanelClient } from './lib/panel-client';
import { quantile, round } from './lib/stats';
import { measuredFigure } from './lib/figures';
import type { BenchFigure, BenchResult } from './types';

/** This figure, declared for `bench/obs.ts`'s list. */
export const obsActionLatencyFigures: BenchFigure[] = [
  { name: 'obs-action-latency-ms', unit: 'ms', target: { op: '<=', value: 100 } },
];

const BREAKS = Number(process.env.GREENROOM_BENCH_OBS_BREAKS ?? 50);
const STREAMER = 100001;
/** Kick's shortest ad break (shared/limits.ts adBreakSecondsMin). */
const BREAK_SECONDS = 7;

const note = (line: string): void => console.error(`obs-action-latency: ${line}`);

async function admin<T>(api: AdminApi, method: 'GET' | 'POST' | 'PATCH', path: string, body?: unknown): Promise<T> {
  const res = await request(`${api.url}${path}`, {
    method,
    headers: {
      ...(api.token ? { authorization: `Bearer ${api.token}` } : {}),
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await res.body.text();
  if (res.statusCode >= 300) {
    throw new Error(`sandbox admin ${method} ${path}: ${res.statusCode} ${text}`);
  }
  return JSON.parse(text) as T;
}

/** The sandbox clock's lead over this machine's, in ms (it only moves when advanced). */
async function sandboxLead(api: AdminApi): Promise<number> {
  const before = Date.now();
  const { now_ms } = await admin<{ now_ms: number }>(api, 'GET', '/clock');
  return now_ms - (before + Date.now()) / 2;
}

async function invoke<T>(panel: PanelClient, channel: string, args: unknown[] = []): Promise<T> {
  const result = await panel.invoke<T>(channel, args);
  if (!result.ok) {
    throw new Error(`${channel} was refused: ${JSON.stringify(result.error)}`);
  }
  return result.value as T;
}

function connected(panel: PanelClient, timeoutMs = 30_000): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`OBS not connected within ${timeoutMs} ms`)), timeoutMs);
    const off = panel.onEvent((event, payload) => {
      if (event === 'obs:changed' && (payload as ObsView).connection.kind === 'connected') {
        clearTimeout(timer);
        off();
        resolve();
      }
    });
  });
}

export async function obsActionLatency(): Promise<BenchResult[]> {
  const result = (value: number): BenchResult[] => [
    measuredFigure(obsActionLatencyFigures, 'obs-action-latency-ms', value),
  ];
  const skip = obsSkipReason();
  if (skip) {
    note(skip);
    return result(Number.NaN);
  }
  ensureBuilt(note);
  let obs: ObsProcess | undefined;
  let app: AppProcess | undefined;
  let panel: PanelClient | undefined;
  const client = new OBSWebSocket();
  try {
    obs = await startObs();
    await client.connect(obs.url, obs.password ?? undefined);
    for (const sceneName of ['Main', 'Ads']) {
      await client.call('CreateScene', { sceneName });
    }
    await client.call('SetCurrentProgramScene', { sceneName: 'Main' });
    const started = await startAppProcess();
    app = started;
    panel = await connectPanel(app.panelUrl);
    await signInOverPanel(panel, async () => (await started.waitForLine(/^Open this link to continue: (\S+)/))[1]!);
    const isConnected = connected(panel);
    await invoke(panel, 'obs:save-connection', [
      { enabled: true, host: '127.0.0.1', port: obs.port, password: obs.password ?? '' },
    ]);
    await isConnected;
    await invoke(panel, 'settings:update', [
      { obsActions: { ...DEFAULT_OBS_ACTIONS, adBreak: { enabled: true, scene: 'Ads' } } },
    ]);
    const api = await app.admin();
    // Kick runs ad breaks for an enrolled channel (enrolled while offline) that is live.
    await invoke(panel, 'ads:enroll');
    await admin(api, 'POST', `/channels/${STREAMER}/live`, { is_live: true });
    await admin(api, 'PATCH', `/channels/${STREAMER}/ads`, { limit_max: BREAKS * 10 });

    let heard: ((atMs: number) => void) | null = null;
    client.on('CurrentProgramSceneChanged', ({ sceneName }) => {
      if (sceneName === 'Ads') {
        heard?.(Date.now());
      }
    });
    const latencies: number[] = [];
    for (let i = 0; i < BREAKS; i++) {
      const lead = await sandboxLead(api);
      const switched = new Promise<number>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`break ${i + 1}: OBS did not switch within 10 s`)), 10_000);
        heard = (atMs) => {
          clearTimeout(timer);
          resolve(atMs);
        };
      });
      const { id } = await invoke<{ id: string }>(panel, 'ads:run', [{ seconds: BREAK_SECONDS }]);
      const heardAtMs = await switched;
      heard = null;
      const { breaks } = await admin<{ breaks: { id: string; created_at: string }[] }>(
        api,
        'GET',
        `/channels/${STREAMER}/ads`,
      );
      const accepted = breaks.find((b) => b.id === id);
      if (!accepted) {
        throw new Error(`break ${i + 1}: the sandbox has no ad break ${id}`);
      }
      latencies.push(heardAtMs - (Date.parse(accepted.created_at) - lead));
      // Back to Main by hand, and the sandbox past this break, so the next one can run at once.
      await client.call('SetCurrentProgramScene', { sceneName: 'Main' });
      await admin(api, 'POST', '/clock/advance', { seconds: BREAK_SECONDS + 1 });
    }
    note(
      `${latencies.length} breaks: p50 ${round(quantile(latencies, 0.5), 1)} ms, ` +
        `max ${round(Math.max(...latencies), 1)} ms (the sandbox's created_at has whole milliseconds)`,
    );
    return result(round(quantile(latencies, 0.95), 1));
  } finally {
    await client.disconnect().catch(() => undefined);
    await panel?.close().catch(() => undefined);
    await app?.stop().catch(() => undefined);
    await obs?.close().catch(() => undefined);
  }
}
