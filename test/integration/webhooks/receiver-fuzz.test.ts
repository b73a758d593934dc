/**
 * Forgery fuzz: 10,000+ mutated deliveries over real HTTP (keep-alive, 16 in flight), from a seeded PRNG,
 * against one receiver. The property: the receiver accepts (200) only deliveries whose signed parts — the
 * message id, the timestamp and the raw body — are exactly what the valid key signed, with exactly that
 * signature. Everything else (flipped, inserted, truncated bytes, oversize and non-JSON bodies, removed,
 * duplicated and garbage headers, flipped, truncated, non-canonical or wrong-key signatures, a valid
 * signature of another body, shifted timestamps, swapped ids) must be rejected, and the receiver must
 * still accept a genuine delivery afterwards.
 *
 * Kick does not sign `Kick-Event-Type`, `-Version` or `-Subscription-Id` ([reference §5.3](../../../docs/kick-wire-reference.md#53-signature-algorithm)), so a change to
 * those alone leaves the signed delivery intact; the fuzz sends such changes too and holds them to the
 * same property (accepted only with the signed parts intact), which is all the receiver can know.
 */
import { describe, expect, it } from 'vitest';
import { buildDelivery, samplePayloads } from '../../helpers/webhook-signing';
import {
  CONCURRENCY,
  type Mutant,
  SEED,
  T0,
  TOTAL,
  createRng,
  events,
  fx,
  get,
  journal,
  key,
  mutate,
  signed,
  tripleKey,
  useSetup,
} from './receiver-fuzz-fixtures';
import { OWN_SUBSCRIPTION_ID } from './own-channel-fixtures';

useSetup();

describe('receiver fuzz', () => {
  it('accepts no forgery in 10,000+ mutated deliveries and keeps serving', async () => {
    const rng = createRng(SEED);
    const mutants = Array.from({ length: TOTAL }, () => mutate(rng));
    const outcomes: { mutant: Mutant; status: number }[] = [];
    let next = 0;
    const worker = async (): Promise<void> => {
      while (next < mutants.length) {
        const mutant = mutants[next++]!;
        const res = await fx.pool.request({
          path: fx.url.pathname,
          method: 'POST',
          headers: mutant.headers.flat(),
          body: mutant.body,
        });
        await res.body.dump();
        outcomes.push({ mutant, status: res.statusCode });
      }
    };
    await Promise.all(Array.from({ length: CONCURRENCY }, worker));
    expect(outcomes).toHaveLength(TOTAL);

    // The property: a 200 only for exactly signed parts with exactly their signature.
    const forgeries: string[] = [];
    for (const { mutant, status } of outcomes) {
      // HTTP strips surrounding whitespace from header values, so " X " arrives as "X".
      const one = (name: string): string | null => {
        const values = get(mutant.headers, name);
        return values.length === 1 ? values[0]!.replace(/^[ \t]+|[ \t]+$/g, '') : null;
      };
      const id = one('Kick-Event-Message-Id');
      const ts = one('Kick-Event-Message-Timestamp');
      const signature = one('Kick-Event-Signature');
      const genuine = id !== null && ts !== null && signed.get(tripleKey(id, ts, mutant.body)) === signature;
      if (status === 200 && !genuine) {
        forgeries.push(mutant.kind);
      }
      if (mutant.kind === 'resigned-out-of-window') {
        expect(status).toBe(400);
      }
      if (mutant.kind === 'identical') {
        expect(status).toBe(200);
      }
      expect([200, 400, 405, 413, 415]).toContain(status);
    }
    expect(forgeries).toEqual([]);

    // The journal holds only genuine deliveries, byte for byte.
    for (const record of journal.records) {
      expect(signed.has(tripleKey(record.messageId, record.timestamp, Buffer.from(record.body, 'utf8')))).toBe(true);
    }
    // A changed subscription id is not signed, so it stays a genuine delivery, but not of a subscription
    // Greenroom holds: answered 200 and not acted on (counted as foreign), never journaled.
    expect(new Set(journal.records.map((record) => record.subscriptionId))).toEqual(new Set([OWN_SUBSCRIPTION_ID]));
    const { accepted, duplicates, rejected, foreign, rejectedByCode } = fx.receiver.counters;
    expect(foreign).toBeGreaterThan(0);
    expect(accepted + duplicates + rejected + foreign).toBe(TOTAL);
    expect(accepted).toBe(journal.records.length);
    expect(events).toHaveLength(accepted);
    expect(outcomes.filter((o) => o.status === 200)).toHaveLength(accepted + duplicates + foreign);
    // Every rejection class was exercised.
    for (const code of [
      'WebhookSignature',
      'WebhookHeaders',
      'WebhookTooLarge',
      'WebhookStale',
      'WebhookContentType',
      'WebhookBody',
    ]) {
      expect(rejectedByCode[code], code).toBeGreaterThan(0);
    }
    expect(rejected).toBeGreaterThan(TOTAL * 0.8);

    // Still serving: a fresh genuine delivery is accepted and published.
    const fresh = buildDelivery({
      type: 'channel.followed',
      payload: samplePayloads(T0)['channel.followed'],
      privateKey: key.privateKey,
      atMs: T0,
    });
    const res = await fx.pool.request({
      path: fx.url.pathname,
      method: 'POST',
      headers: fresh.headers,
      body: fresh.body,
    });
    expect(res.statusCode).toBe(200);
    expect(await res.body.text()).toBe('OK');
    expect(events.at(-1)).toMatchObject({ kind: 'known', type: 'channel.followed', messageId: fresh.messageId });
  }, 120_000);
});
