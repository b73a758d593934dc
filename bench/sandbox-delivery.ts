/**
 * `sandbox-delivery-rate`: how fast the sandbox delivers signed webhooks, so a benchmark built on it
 * measures Greenroom and not the sandbox ("the sandbox is never the bottleneck"). A live sandbox
 * (its default delivery options, as the app embeds it) with one chat subscription delivers a burst of chat
 * messages to a trivial receiver in another process; the rate is messages over the time from the first
 * event queued to the receiver's last request. Median of 3 rounds.
 */
import { createUlid } from '../electron/core/ids';
import { chatMessagePayload } from '../sandbox/events/payloads';
import { createSandbox } from '../sandbox/index';
import type { SandboxChatMessage } from '../sandbox/state';
import { FIRST_VIEWER_USER_ID, STREAMER_USER_ID } from '../sandbox/world';
import { median } from './lib/stats';
import { startTrivialReceiver } from './lib/trivial-receiver';
import { measuredFigures } from './lib/figures';
import type { BenchFigure, BenchResult } from './types';

const MESSAGES = Number(process.env.GREENROOM_BENCH_DELIVERY_MESSAGES ?? 10_000);
const ROUNDS = 3;
/** Events queued per macrotask: arrivals in bursts, as triggers and scenarios produce them. */
const BURST = 200;

/** What `run` gives, printed as NaN with the reason when the module cannot run (bench/run.ts). */
export const figures: BenchFigure[] = [
  { name: 'sandbox-delivery-rate', unit: 'deliveries/s', target: { op: '>=', value: 2000 } },
];

export async function run(): Promise<BenchResult[]> {
  const receiver = await startTrivialReceiver();
  const sandbox = await createSandbox({ webhookUrl: receiver.url });
  try {
    const { state, app, clock } = sandbox.ctx;
    const now = clock.now();
    const subscriptionId = createUlid(now);
    state.subscriptions.set(subscriptionId, {
      id: subscriptionId,
      appId: app.appId,
      clientId: app.clientId,
      broadcasterUserId: STREAMER_USER_ID,
      event: 'chat.message.sent',
      version: 1,
      createdAtMs: now,
      updatedAtMs: now,
    });
    const content = 'that play was insane [emote:37226:KEKW] clip it before the raid lands, chat is going wild';
    let seq = 0;
    const emitBurst = (count: number): void => {
      for (let i = 0; i < count; i++) {
        const message: SandboxChatMessage = {
          messageId: `bench-${seq++}`,
          broadcasterUserId: STREAMER_USER_ID,
          senderUserId: FIRST_VIEWER_USER_ID + (seq % 30),
          content,
          type: 'viewer',
          replyToMessageId: null,
          createdAtMs: clock.now(),
          deleted: false,
        };
        state.emit({
          type: 'chat.message.sent',
          version: 1,
          broadcasterUserId: STREAMER_USER_ID,
          payload: chatMessagePayload(state, message),
        });
      }
    };
    const deliver = async (total: number): Promise<number> => {
      const done = receiver.expect(total);
      const started = performance.now();
      for (let sent = 0; sent < total; sent += BURST) {
        emitBurst(Math.min(BURST, total - sent));
        await new Promise((resolve) => setImmediate(resolve));
      }
      await done;
      return total / ((performance.now() - started) / 1000);
    };

    await deliver(500); // warm-up: JIT, sockets
    const rates: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      rates.push(await deliver(MESSAGES));
    }
    const failed = sandbox.delivery.attempts.filter((a) => !a.delivered).length;
    if (failed > 0) {
      throw new Error(`${failed} deliveries to the trivial receiver failed`);
    }
    return measuredFigures(figures, { 'sandbox-delivery-rate': Math.round(median(rates)) });
  } finally {
    await sandbox.close();
    await receiver.close();
  }
}
