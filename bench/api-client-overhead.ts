/**
 * `api-client-overhead`: the client's median time per call against the sandbox divided by a bare undici
 * request to the same endpoint with the same token, interleaved in one run so both see the same machine.
 */
import { Agent, request } from 'undici';
import { AdjustableClock } from '../electron/core/clock';
import { createKick } from '../electron/kick/create-kick';
import { MemorySecretStore } from '../electron/secrets/secret-store';
import { createSandbox } from '../sandbox/index';
import { issueAccessToken } from '../sandbox/tokens';
import { STREAMER_USER_ID } from '../sandbox/world';
import { KICK_SCOPES } from '../shared/kick/scopes';
import { measuredFigures } from './lib/figures';
import type { BenchFigure, BenchResult } from './types';

const ROUNDS = 3000;
const WARMUP = 300;

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

export async function run(): Promise<BenchResult[]> {
  const sandbox = await createSandbox({ delivery: { tickMs: 0 } });
  const token = issueAccessToken(sandbox.ctx.state, {
    kind: 'user',
    clientId: sandbox.ctx.app.clientId,
    userId: STREAMER_USER_ID,
    scopes: [...KICK_SCOPES],
    lifetimeSeconds: 86_400,
  }).token;
  const described = sandbox.describe();
  const clientAgent = new Agent({ keepAliveTimeout: 30_000, connections: 1 });
  const bareAgent = new Agent({ keepAliveTimeout: 30_000, connections: 1 });
  const kick = createKick(
    {
      apiUrl: described.apiUrl,
      authUrl: described.authUrl,
      clientId: described.clientId,
      clientSecret: described.clientSecret,
      redirectUri: 'http://127.0.0.1:3000/callback',
      scopes: KICK_SCOPES,
    },
    {
      clock: new AdjustableClock(),
      store: new MemorySecretStore(),
      openExternal: () => Promise.resolve(),
      dispatcher: clientAgent,
    },
  );
  await kick.session.setUserToken({
    access_token: token,
    refresh_token: 'unused',
    expires_in: 86_400,
    scope: KICK_SCOPES.join(' '),
  });
  const url = new URL(`/public/v1/channels?broadcaster_user_id=${STREAMER_USER_ID}`, described.apiUrl);
  const bare = async (): Promise<void> => {
    const res = await request(url, {
      method: 'GET',
      headers: { authorization: `Bearer ${token}`, accept: 'application/json' },
      dispatcher: bareAgent,
    });
    JSON.parse(await res.body.text());
  };
  const viaClient = async (): Promise<void> => {
    await kick.client.fetchChannel({ userId: STREAMER_USER_ID });
  };
  const clientTimes: number[] = [];
  const bareTimes: number[] = [];
  for (let i = 0; i < WARMUP + ROUNDS; i++) {
    // Alternate which goes first so neither always runs on a warmer connection.
    const order = i % 2 === 0 ? [viaClient, bare] : [bare, viaClient];
    for (const fn of order) {
      const start = process.hrtime.bigint();
      await fn();
      const ms = Number(process.hrtime.bigint() - start) / 1e6;
      if (i >= WARMUP) {
        (fn === bare ? bareTimes : clientTimes).push(ms);
      }
    }
  }
  await kick.close();
  await clientAgent.close();
  await bareAgent.close();
  await sandbox.close();
  const ratio = median(clientTimes) / median(bareTimes);
  return measuredFigures(figures, {
    'api-client-overhead': Number(ratio.toFixed(3)),
    'api-client-median-ms': Number(median(clientTimes).toFixed(3)),
    'api-bare-undici-median-ms': Number(median(bareTimes).toFixed(3)),
  });
}

/** What `run` gives, printed as NaN with the reason when the module cannot run (bench/run.ts). */
export const figures: BenchFigure[] = [
  { name: 'api-client-overhead', unit: 'x', target: { op: '<=', value: 1.2 } },
  { name: 'api-client-median-ms', unit: 'ms', target: { op: '<=', value: 5 } },
  { name: 'api-bare-undici-median-ms', unit: 'ms', target: { op: '<=', value: 5 } },
];
