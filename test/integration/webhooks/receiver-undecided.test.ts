/**
 * Deliveries the channel gate cannot judge yet (start-up, before the subscription list), over real HTTP:
 * they wait, but only so many at once (each holds a socket, through the tunnel one of its ten), and stopping
 * the receiver ends every wait with a 503 so Kick sends them again to the next run.
 */
import { describe, expect, it } from 'vitest';
import { type ChannelGate, createChannelGate } from '../../../electron/webhooks/receive/channel-gate';
import { postDelivery } from '../../helpers/webhook-signing';
import { startReceiver, useSetup } from './receiver-fixtures';

useSetup();

describe('deliveries that cannot be judged yet', () => {
  it('past maxHolding waiting, the next is answered 503 at once; stop() answers the waiting ones 503', async () => {
    // The real gate, watched: the test sends the third delivery once two are waiting on it.
    const real = createChannelGate(null);
    let waiters = 0;
    let twoWaiting: () => void = () => undefined;
    const bothWaiting = new Promise<void>((resolve) => (twoWaiting = resolve));
    const gate: ChannelGate = {
      ...real,
      nextChange() {
        if (++waiters === 2) {
          twoWaiting();
        }
        return real.nextChange();
      },
    };
    const h = await startReceiver({ deps: { gate, holdMs: 60_000, maxHolding: 2 } });
    const waiting = [postDelivery(h.url, h.delivery()), postDelivery(h.url, h.delivery())];
    await bothWaiting;
    const third = await postDelivery(h.url, h.delivery());
    expect(third.status).toBe(503);
    expect(JSON.parse(third.text)).toMatchObject({ error: 'WebhookNotReady' });
    await h.receiver.stop();
    const answers = await Promise.all(waiting);
    expect(answers.map((a) => [a.status, (JSON.parse(a.text) as { error: string }).error])).toEqual([
      [503, 'WebhookShuttingDown'],
      [503, 'WebhookShuttingDown'],
    ]);
    expect(h.journal.records).toEqual([]);
    expect(h.events).toEqual([]);
  });
});
