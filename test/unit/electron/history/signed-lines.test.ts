/**
 * A chat line the live socket brought first and Kick's signed webhook for it after: one line, counted once, and
 * the signed words and sender win (docs/history.md#what-it-keeps).
 */
import { afterEach, expect, it } from 'vitest';
import { createRecapQueries } from '../../../../electron/history/recap';
import { createViewerSearch } from '../../../../electron/history/viewer-search';
import type { JournalRecord } from '../../../../electron/webhooks/events/types';
import { describeSqlite, events, MIN, receivedAt, socketCopy, socketVariant, T0, user } from './history-fixtures';
import { feed, type Fed } from './recap-fixtures';

let fed: Fed | null = null;
afterEach(() => {
  fed?.store.close();
  fed = null;
});

const recapOf = (f: Fed) => createRecapQueries(f.db).recap(T0)!;

describeSqlite("the signed webhook over the live socket's line", () => {
  it('keeps the signed words when the socket said other words, counted once', () => {
    const signed = events.chat('m1', 10, T0 + MIN, 'the signed words');
    fed = feed([events.live(T0), socketVariant(signed, { content: 'what the socket said' })]);
    expect(fed.store.apply(signed)).toBe(true);
    expect(fed.store.chatLines().map((l) => l.content)).toEqual(['the signed words']);
    expect(fed.store.viewer(10)).toMatchObject({ messages: 1, streams: 1 });
    expect(recapOf(fed).figures.messages).toBe(1);
  });

  it('moves the message to the signed sender and forgets a sender only the socket named', () => {
    const signed = events.chat('m2', 10, T0 + MIN, 'hi', 'real_sender');
    fed = feed([events.live(T0), socketVariant(signed, { sender: 66 }), signed]);
    expect(fed.store.chatLines().map((l) => [l.userId, l.username])).toEqual([[10, 'real_sender']]);
    expect(fed.store.viewer(10)).toMatchObject({ messages: 1, streams: 1, firstSeenMs: T0 + MIN });
    expect(fed.store.viewer(66)).toBeNull();
    expect(createViewerSearch(fed.db).search('viewer_66', 10)).toEqual([]);
    const { newChatters, returningChatters } = recapOf(fed);
    expect([...newChatters, ...returningChatters]).toEqual([{ userId: 10, username: 'real_sender', messages: 1 }]);
  });

  it("keeps the socket's sender with one message less when they were seen otherwise too", () => {
    const signed = events.chat('m3', 10, T0 + 5 * MIN);
    fed = feed([
      events.live(T0),
      events.chat('own', 66, T0 + MIN),
      socketVariant(signed, { sender: 66 }),
      signed,
      events.offline(T0, T0 + 60 * MIN),
    ]);
    expect(fed.store.viewer(66)).toMatchObject({ messages: 1, firstSeenMs: T0 + MIN, lastSeenMs: T0 + MIN });
    expect(fed.store.viewer(10)?.messages).toBe(1);
    expect(recapOf(fed).figures.messages).toBe(2);
  });

  it('counts a line once when the socket gave another second than Kick', () => {
    const signed = events.chat('m4', 10, T0 + MIN + 999);
    const socket = socketVariant(signed, { createdAtMs: T0 + MIN + 1_000 });
    fed = feed([events.live(T0), socket, signed, socket]);
    expect(fed.store.chatLines()).toEqual([expect.objectContaining({ atMs: T0 + MIN + 999, userId: 10 })]);
    expect(fed.store.viewer(10)?.messages).toBe(1);
    expect(recapOf(fed).figures.messages).toBe(1);
  });

  it('changes nothing for a socket copy that comes after the signed line, whatever it says', () => {
    const signed = events.chat('m5', 10, T0 + MIN, 'signed');
    fed = feed([events.live(T0), signed]);
    expect(fed.store.apply(socketVariant(signed, { content: 'forged', sender: 66 }))).toBe(false);
    expect(fed.store.apply(socketCopy(signed))).toBe(false);
    expect(fed.store.chatLines().map((l) => [l.userId, l.content])).toEqual([[10, 'signed']]);
    expect(fed.store.viewer(66)).toBeNull();
  });

  it('rebuilds to the same rows from the journal in the same order', () => {
    const signed = events.chat('m6', 10, T0 + MIN, 'signed');
    const journal = [events.live(T0), socketVariant(signed, { content: 'x', sender: 66 }), signed];
    fed = feed(journal);
    const again = feed(journal);
    expect(again.store.chatLines()).toEqual(fed.store.chatLines());
    expect(again.store.viewer(10)).toEqual(fed.store.viewer(10));
    again.store.close();
  });
});

/** The socket's copy of `signed` naming its sender `name`. */
function socketNaming(signed: JournalRecord, name: string): JournalRecord {
  const copy = socketCopy(signed);
  const payload = JSON.parse(copy.body) as { sender: { user_id: number } };
  return { ...copy, body: JSON.stringify({ ...payload, sender: user(payload.sender.user_id, name) }) };
}

describeSqlite("the signed sender's name over the socket's", () => {
  it('names the viewer as the signed line does, the socket having come first', () => {
    const at = T0 + MIN + 300;
    const signed = receivedAt(events.chat('m1', 10, at, 'hi', 'real_name'), at + 900);
    fed = feed([events.live(T0), receivedAt(socketNaming(signed, 'socket_name'), at + 100), signed]);
    expect(fed.store.chatLines().map((l) => l.username)).toEqual(['real_name']);
    expect(fed.store.viewer(10)?.username).toBe('real_name');
    const recap = createRecapQueries(fed.db).recap(T0)!;
    expect(recap.newChatters.map((c) => c.username)).toEqual(['real_name']);
  });

  it("names the viewer as the signed line does when this computer's clock is behind Kick's", () => {
    // The clock the change was made for: this computer reads 2 s behind Kick's, so the socket's copy "arrives"
    // before Kick's time for it.
    const at = T0 + MIN + 300;
    const signed = receivedAt(events.chat('m2', 11, at, 'hi', 'real_name'), at - 1_000);
    fed = feed([events.live(T0), receivedAt(socketNaming(signed, 'socket_name'), at - 2_000), signed]);
    expect(fed.store.viewer(11)?.username).toBe('real_name');
  });
});
