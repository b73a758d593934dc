/**
 * What a duplicate delivery costs the webhook service, with and without its debug line
 * ([decisions](../../docs/decisions.md#a-debug-line-is-built-only-when-read)): in a chat storm every line comes twice,
 * so a copy's cost is paid once per line. The service runs in this process with its file journal, the load
 * generator posts Kick's resends of deliveries it already accepted (16 in flight, `ingest-drive.ts`), and the CPU
 * this process used per resend is read in fresh services, the ways taking turns: the line not built (debug off, the
 * default), built and handed to the app's logger at its default level (which drops it, as before this change),
 * and written to stderr as plain text (as before the app's logger). The load generator is the same in every way, so
 * the differences are the line's.
 *
 * Run: `npx tsx bench/lib/ingest-duplicates.ts 2> >(cat >/dev/null)` (stderr a pipe, as the app's is).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { systemClock } from '../../electron/core/clock';
import { createLogger } from '../../electron/core/logger';
import { createWebhookService } from '../../electron/webhooks/webhook-service';
import { KICK_EVENT_TYPES } from '../../shared/kick/scopes';
import { saveHeld } from '../../test/integration/webhooks/own-channel-fixtures';
import { buildDelivery, createTestKey, samplePayloads } from '../../test/helpers/webhook-signing';
import { drive } from './ingest-drive';
import { median } from './stats';

const COPIES = 1500;
const ROUNDS = 5;

const key = createTestKey();
const chat = samplePayloads()['chat.message.sent'];
const deliveries = Array.from({ length: COPIES }, (_, i) =>
  buildDelivery({
    type: 'chat.message.sent',
    payload: { ...chat, message_id: `copy-${i}`, content: `message ${i} [emote:37226:KEKW] gg` },
    privateKey: key.privateKey,
  }),
);

const WAYS = {
  'not built (debug off)': null,
  'built, dropped by the logger': createLogger({ level: 'info', clock: systemClock }).line,
  'built, written to stderr': (line: string) => void process.stderr.write(`${line}\n`),
} as const;
type Way = keyof typeof WAYS;

/** CPU µs this process spent per resend, in a fresh service logging the way `way` says. */
async function round(way: Way): Promise<number> {
  const log = WAYS[way];
  const dataDir = mkdtempSync(join(tmpdir(), 'greenroom-duplicates-'));
  saveHeld(dataDir);
  const service = createWebhookService(
    { dataDir, port: 0, tunnel: 'off', subdomain: 'unused0', wantedEvents: KICK_EVENT_TYPES },
    {
      clock: systemClock,
      log: log ?? (() => undefined),
      fetchPublicKey: () => Promise.resolve(key.publicKeyPem),
      debugLog: () => log !== null,
    },
  );
  try {
    await (await service.restore()).start();
    const url = service.receiverUrl()!;
    await drive(url, deliveries);
    const before = process.cpuUsage();
    await drive(url, deliveries);
    const used = process.cpuUsage(before);
    const { duplicates } = service.health().counters;
    if (duplicates !== COPIES) {
      throw new Error(`expected ${COPIES} copies, the service counted ${duplicates}`);
    }
    return (used.user + used.system) / COPIES;
  } finally {
    await service.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  const ways = Object.keys(WAYS) as Way[];
  const used = new Map<Way, number[]>(ways.map((way) => [way, []]));
  await round(ways[0]!); // warm-up: JIT and sockets
  for (let r = 0; r < ROUNDS; r++) {
    // Which comes first turns, so none always gets the warmer moment.
    for (let i = 0; i < ways.length; i++) {
      const way = ways[(r + i) % ways.length]!;
      used.get(way)!.push(await round(way));
    }
  }
  for (const [way, xs] of used) {
    console.log(
      `CPU per resend, line ${way}: median ${median(xs).toFixed(0)} µs (${xs.map((x) => x.toFixed(0)).join(', ')})`,
    );
  }
}

void main();
