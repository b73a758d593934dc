/**
 * The load generator of `webhook-ingest` (bench/webhook-ingest.ts): posts signed deliveries over keep-alive
 * connections with a fixed number in flight, the same way to every receiver it compares.
 */
import { performance } from 'node:perf_hooks';
import { Pool } from 'undici';
import type { TestDelivery } from '../../test/helpers/webhook-signing';

/** Deliveries in flight at once. */
export const CONCURRENCY = 16;

/** Posts every delivery with `CONCURRENCY` in flight; returns deliveries per second. Throws on a non-200. */
export async function drive(url: string, deliveries: readonly TestDelivery[]): Promise<number> {
  const target = new URL(url);
  const pool = new Pool(target.origin, { connections: CONCURRENCY, pipelining: 1 });
  try {
    let next = 0;
    const worker = async (): Promise<void> => {
      while (next < deliveries.length) {
        const d = deliveries[next++]!;
        const res = await pool.request({ path: target.pathname, method: 'POST', headers: d.headers, body: d.body });
        const text = await res.body.text();
        if (res.statusCode !== 200) {
          throw new Error(`${url} answered ${res.statusCode} ${text.slice(0, 200)}`);
        }
      }
    };
    const started = performance.now();
    await Promise.all(Array.from({ length: CONCURRENCY }, worker));
    return deliveries.length / ((performance.now() - started) / 1000);
  } finally {
    await pool.close();
  }
}
