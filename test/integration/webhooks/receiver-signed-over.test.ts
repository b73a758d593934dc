/**
 * The receiver over real HTTP when a chat line's webhook disagrees with the line the live socket journaled
 * under the same key ([design notes](../../../docs/design-notes.md#chat-from-the-live-socket-first)): the signed
 * webhook is the record, so it is journaled and announced, and from then on Kick's retries and resends of
 * it are copies. A failed write leaves it to Kick's retry, which is then kept.
 */
import { describe, expect, it } from 'vitest';
import { createDeliveryDedup, hashBody } from '../../../electron/webhooks/dedup/dedup';
import { eventKeyOf } from '../../../electron/webhooks/events/event-key';
import { createSignedCopies } from '../../../electron/webhooks/dedup/signed-copy';
import { toRfc3339 } from '../../../electron/core/clock';
import { buildDelivery, postDelivery } from '../../helpers/webhook-signing';
import { key, payloads, startReceiver, T0, useSetup } from './receiver-fixtures';

useSetup();

const MESSAGE_ID = '0a1b2c3d-0000-4000-8000-000000000031';
const line = (content: string, userId = 100100) => ({
  ...payloads['chat.message.sent'],
  message_id: MESSAGE_ID,
  content,
  sender: { ...payloads['chat.message.sent'].sender, user_id: userId },
  created_at: toRfc3339(T0),
});

/** A receiver whose dedup already holds the socket's line "socket says A", as the live merge leaves it. */
async function afterSocketLine() {
  const dedup = createDeliveryDedup();
  const copies = createSignedCopies();
  const taken: boolean[] = [];
  const h = await startReceiver({
    deps: {
      dedup,
      signedOver: (_eventKey, payload) =>
        copies.differs(payload)
          ? (kept) => {
              taken.push(kept);
              if (kept) {
                copies.signed(payload);
              }
            }
          : null,
    },
  });
  const socket = line('socket says A');
  const eventKey = eventKeyOf('chat.message.sent', socket)!;
  const body = JSON.stringify(socket);
  const claim = dedup.claim(`live-socket:${MESSAGE_ID}`, hashBody(Buffer.from(body)), T0, eventKey);
  if (claim.verdict !== 'new') {
    throw new Error('the socket line should be new');
  }
  claim.settle(true);
  copies.socketLine(socket);
  const webhook = (content: string, messageId?: string, userId?: number) =>
    buildDelivery({
      type: 'chat.message.sent',
      payload: line(content, userId),
      privateKey: key.privateKey,
      atMs: h.clock.now(),
      ...(messageId ? { messageId } : {}),
    });
  return { h, taken, webhook };
}

const contents = (records: { body: string }[]) =>
  records.map((r) => (JSON.parse(r.body) as { content: string }).content);

describe('receiver: a signed chat line that disagrees with the socket', () => {
  it('journals and announces it once; its retry and a resend under a new id are copies', async () => {
    const { h, taken, webhook } = await afterSocketLine();
    const signed = webhook('signed says B');
    expect((await postDelivery(h.url, signed)).status).toBe(200);
    expect(contents(h.journal.records)).toEqual(['signed says B']);
    expect(h.events.map((e) => (e.payload as { content: string }).content)).toEqual(['signed says B']);
    expect(taken).toEqual([true]);
    // Kick's retry under the same id, and a resend under a new id past the body window.
    expect((await postDelivery(h.url, signed)).status).toBe(200);
    h.clock.advance(60_000);
    expect((await postDelivery(h.url, webhook('signed says B'))).status).toBe(200);
    expect(h.journal.records).toHaveLength(1);
    expect(h.events).toHaveLength(1);
    expect(h.receiver.counters).toMatchObject({ accepted: 1, duplicates: 2 });
  });

  it('takes another sender with the same words as the record too', async () => {
    const { h, webhook } = await afterSocketLine();
    expect((await postDelivery(h.url, webhook('socket says A', undefined, 100102))).status).toBe(200);
    expect(h.journal.records).toHaveLength(1);
    expect(h.events).toHaveLength(1);
  });

  it('drops a webhook that agrees, as before', async () => {
    const { h, taken, webhook } = await afterSocketLine();
    expect((await postDelivery(h.url, webhook('socket says A'))).status).toBe(200);
    expect(h.journal.records).toHaveLength(0);
    expect(h.events).toHaveLength(0);
    expect(taken).toEqual([]);
    expect(h.receiver.counters).toMatchObject({ accepted: 0, duplicates: 1 });
  });

  it('answers 500 when its write fails, and keeps Kick’s retry without announcing it twice', async () => {
    const { h, taken, webhook } = await afterSocketLine();
    const signed = webhook('signed says B');
    h.journal.failNext();
    expect((await postDelivery(h.url, signed)).status).toBe(500);
    expect(h.journal.records).toHaveLength(0);
    expect(taken).toEqual([false]);
    expect((await postDelivery(h.url, signed)).status).toBe(200);
    expect(contents(h.journal.records)).toEqual(['signed says B']);
    expect(h.events).toHaveLength(1);
    expect(taken).toEqual([false, true]);
  });

  it('keeps one of two copies from duplicate subscriptions arriving together', async () => {
    const { h, webhook } = await afterSocketLine();
    const answers = await Promise.all([
      postDelivery(h.url, webhook('signed says B')),
      postDelivery(h.url, webhook('signed says B')),
    ]);
    expect(answers.map((a) => a.status)).toEqual([200, 200]);
    expect(contents(h.journal.records)).toEqual(['signed says B']);
    expect(h.events).toHaveLength(1);
  });
});
