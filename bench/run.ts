/**
 * `npm run bench [-- <name> …]`: runs each benchmark module (or the named ones) and prints one line per
 * figure in the format [design notes](../docs/design-notes.md#benchmarks-print-one-line-per-figure) fix. Ratios are measured side by side within one module's run.
 */
import type { BenchModule, BenchResult } from './types';

const MODULES: Record<string, () => Promise<BenchModule>> = {
  'api-client': () => import('./api-client-overhead'),
  'webhook-ingest': () => import('./webhook-ingest'),
  'journal-append': () => import('./journal-append'),
  'panel-startup': () => import('./panel-startup'),
  'sandbox-delivery': () => import('./sandbox-delivery'),
  'chat-storm': () => import('./chat-storm'),
  soak: () => import('./soak'),
  'dedup-memory': () => import('./dedup-memory'),
  overlay: () => import('./overlay'),
  automod: () => import('./automod'),
  'automod-worst-case': () => import('./automod-worst-case'),
  obs: () => import('./obs'),
  history: () => import('./history'),
};

/** A unit may be empty (a plain count) or a phrase (`of 24000`); a figure that could not be measured is NaN. */
function format(result: BenchResult): string {
  const value = Number.isInteger(result.value) ? String(result.value) : result.value.toFixed(result.value < 10 ? 2 : 1);
  const met = result.target.op === '>=' ? result.value >= result.target.value : result.value <= result.target.value;
  const unit = result.unit ? ` ${result.unit}` : '';
  return `bench ${result.name}: ${value}${unit} (target ${result.target.op} ${result.target.value}) ${met ? 'ok' : 'short'}`;
}

async function main(): Promise<void> {
  const wanted = process.argv.slice(2);
  const names = Object.keys(MODULES).filter((name) => wanted.length === 0 || wanted.some((w) => name.includes(w)));
  if (names.length === 0) {
    console.error(`no benchmark matches ${wanted.join(' ')}; known: ${Object.keys(MODULES).join(', ')}`);
    process.exit(2);
  }
  for (const name of names) {
    const module = await MODULES[name]!();
    for (const result of await module.run()) {
      console.log(format(result));
    }
  }
}

await main();
