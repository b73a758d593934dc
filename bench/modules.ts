/**
 * The benchmark modules `npm run bench` knows, by the name it is run with (`npm run bench -- <name>`). Each
 * loads only when it runs; each declares its `figures` (test/unit/bench/modules.test.ts holds every one to it).
 */
import type { BenchModule } from './types';

export const MODULES: Record<string, () => Promise<BenchModule>> = {
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
