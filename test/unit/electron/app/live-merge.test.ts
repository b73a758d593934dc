import { describe, expect, it } from 'vitest';
import type { LiveEvent } from '../../../../shared/kick/live-events';
import { createLiveMerge, LIVE_SOCKET_SOURCE } from '../../../../electron/app/live-merge';
import { ChatHistory } from '../../../../electron/services/chat-history';
import { hashBody } from '../../../../electron/webhooks/dedup/dedup';
import { eventKeyOf } from '../../../../electron/webhooks/events/event-key';
import type { JournalRecord, KickEvent } from '../../../../electron/webhooks/events/types';

const MESSAGE_ID = '6f0c1c5e-1d5e-4a55-9a37-5d1f0b0a0002';

function line(over: Partial<Extract<LiveEvent, { type: 'chat.message' }>> = {}): LiveEvent {
  return {
    type: 'chat.message',
    channel: 'chatrooms.7.v2',
    messageId: MESSAGE_ID,
    chatroomId: 7,
    content: 'hello',
    messageType: 'message',
    sender: {
      id: 42,
      username: 'viewer',
      slug: 'viewer',
      color: '#00FF00',
      badges: [{ type: 'subscriber', text: 'Sub', count: 3 }],
    },
    replyTo: null,
    createdAt: '2026-01-02T03:04:05+00:00',
    ...over,
  };
}

function setUp(verdicts: ('new' | 'duplicate' | 'closed')[] = [], journal = true) {
  const chat = new ChatHistory({ capacity: 100 });
  const recorded: { record: JournalRecord; key: string }[] = [];
  const delivered: KickEvent[] = [];
  const deleted: string[] = [];
  const moderated: LiveEvent[] = [];
  const merge = createLiveMerge({
    clock: { now: () => Date.parse('2026-01-02T03:04:06Z') },
    broadcasterUserId: () => 1,
    recordLive: journal
      ? (record, key, payload) => {
          // The payload handed over is the body it journals, parsed: what the signed copy is told apart by.
          expect(payload).toEqual(JSON.parse(record.body));
          expect(hashBody(Buffer.from(record.body, 'utf8'))).toBe(record.bodyHash);
          recorded.push({ record, key });
          return verdicts.shift() ?? 'new';
        }
      : null,
    deliver: (event) => delivered.push(event),
    chat,
    deleted: (id) => deleted.push(id),
    moderated: (event) => moderated.push(event),
    log: () => undefined,
  });
  return { chat, recorded, delivered, deleted, moderated, merge };
}

describe('live merge', () => {
  it("journals a socket line under the key its webhook will have, and delivers it once in the webhook's shape", () => {
    const { merge, recorded, delivered } = setUp(['new', 'duplicate']);
    merge.onEvent(line());
    merge.onEvent(line());
    expect(delivered).toHaveLength(1);
    expect(recorded[0]!.record).toMatchObject({ subscriptionId: LIVE_SOCKET_SOURCE, type: 'chat.message.sent' });
    // Kick's webhook gives the same line's time to the nanosecond; the key is the same.
    const webhook = { message_id: MESSAGE_ID, created_at: '2026-01-02T03:04:05.123456789Z' };
    expect(recorded[0]!.key).toBe(eventKeyOf('chat.message.sent', webhook));
    expect(delivered[0]).toMatchObject({
      kind: 'known',
      payload: { message_id: MESSAGE_ID, content: 'hello', broadcaster: { user_id: 1 }, sender: { user_id: 42 } },
    });
    expect(merge.counts()).toMatchObject({ shown: 1, alreadyThere: 1 });
  });

  it('delivers the very payload its journal record holds, so a restart rebuilds the same line', () => {
    const { merge, recorded, delivered } = setUp();
    const replyTo = { messageId: 'r-1', content: 'earlier \u2028 line', sender: { id: 9, username: 'other' } };
    const lone = 'odd \ud800 half and \u0000 nul [emote:1:A] [emote:1:A]';
    const sender = { id: 42, username: 'viewer', slug: null, color: null, badges: [] };
    merge.onEvent(line({ content: lone, replyTo, sender }));
    const { record } = recorded[0]!;
    expect(delivered[0]!.payload).toStrictEqual(JSON.parse(record.body));
    expect(record.bodyHash).toMatch(/^[0-9a-f]{64}$/);
  });

  it('lists the emotes inline in the content with their places, as the webhook does', () => {
    const { merge, delivered } = setUp();
    const content = 'hi [emote:37232:PeepoClap]';
    merge.onEvent(line({ content }));
    expect(delivered[0]).toMatchObject({
      payload: { emotes: [{ emote_id: '37232', positions: [{ s: 3, e: content.length - 1 }] }] },
    });
  });

  it('leaves to the webhook a line without Kick time, or when no journal runs', () => {
    const timeless = setUp();
    timeless.merge.onEvent(line({ createdAt: null }));
    const journalless = setUp([], false);
    journalless.merge.onEvent(line());
    expect([...timeless.delivered, ...journalless.delivered]).toHaveLength(0);
    expect(timeless.recorded).toHaveLength(0);
  });

  it("applies a deletion from the socket to chat at once, once, and leaves a banned viewer's lines", () => {
    const { merge, chat, deleted, moderated } = setUp();
    const view = (messageId: string, userId: number) => ({
      messageId,
      content: 'x',
      emotes: [],
      sender: { userId, username: `u${userId}`, color: null, badges: [], isVerified: false },
      replyTo: null,
      sentAtMs: 0,
      deleted: false,
    });
    chat.add(view('a', 42));
    chat.add(view('b', 42));
    chat.add(view('c', 43));
    merge.onEvent({ type: 'chat.deleted', channel: null, messageId: 'a', aiModerated: false, violatedRules: [] });
    merge.onEvent({ type: 'chat.deleted', channel: null, messageId: 'a', aiModerated: false, violatedRules: [] });
    const user = { id: 42, username: 'u42', slug: null };
    merge.onEvent({
      type: 'user.banned',
      channel: null,
      user,
      bannedBy: null,
      permanent: false,
      durationMinutes: 5,
      expiresAt: null,
    });
    // A ban leaves the viewer's other lines: Kick's chat API keeps them; it goes to the mod log instead.
    expect(moderated.map((e) => e.type)).toEqual(['user.banned']);
    expect(deleted).toEqual(['a']);
    expect(chat.find('b')?.deleted).toBe(false);
    expect(chat.find('c')?.deleted).toBe(false);
  });

  it('tells the panels of a deletion of a line main no longer keeps: a paused panel may still show it', () => {
    const { merge, deleted } = setUp();
    merge.onEvent({ type: 'chat.deleted', channel: null, messageId: 'gone', aiModerated: false, violatedRules: [] });
    expect(deleted).toEqual(['gone']);
    expect(merge.counts().removed).toBe(0);
  });

  it("uses none of the socket's subs, gifts, KICKs or redemptions: the signed webhooks bring them", () => {
    const { merge, delivered, recorded } = setUp();
    const sender = { id: 9, username: 'g', slug: null };
    merge.onEvent({ type: 'subscription', channel: null, username: 'v', months: 2 });
    merge.onEvent({ type: 'subs.gifted', channel: null, gifterUsername: 'g', recipients: ['a'], gifterTotal: 1 });
    merge.onEvent({
      type: 'kicks.gifted',
      channel: null,
      transactionId: null,
      sender,
      giftId: 'x',
      giftName: null,
      amount: 100,
      message: null,
      createdAt: null,
    });
    merge.onEvent({ type: 'reward.redeemed', channel: null, title: 't', userId: 9, username: 'g', input: null });
    expect(delivered).toHaveLength(0);
    expect(recorded).toHaveLength(0);
    expect(merge.counts().ignored).toBe(4);
  });
});
