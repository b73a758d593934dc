/** Kick's own id of an event as an id-memory key (docs/design-notes.md, "Kick's own event ids"). */
import { describe, expect, it } from 'vitest';
import { eventKeyOf } from '../../../../../electron/webhooks/events/event-key';

const ULID = /^[0-7][0-9A-HJKMNP-TV-Z]{25}$/;
const chat = { message_id: '6f0c1c5e-1d5e-4a55-9a37-5d1f0b0a0002', created_at: '2025-04-01T07:56:19Z', content: 'hi' };
const redemption = { id: '01JQR8ZK5YB7V1N2C3D4REDEEM', status: 'pending', redeemed_at: '2025-04-01T07:56:19.123Z' };

describe('eventKeyOf', () => {
  it("keys a chat line by its message id, whatever else the body holds, as a ULID led by the event's time", () => {
    const key = eventKeyOf('chat.message.sent', chat)!;
    expect(key).toMatch(ULID);
    expect(eventKeyOf('chat.message.sent', { ...chat, content: 'edited', extra: 1 })).toBe(key);
    expect(eventKeyOf('chat.message.sent', { ...chat, message_id: 'other' })).not.toBe(key);
    // The first ten characters are the time: keys of one moment sort together.
    const later = eventKeyOf('chat.message.sent', { ...chat, message_id: 'x', created_at: '2025-04-01T07:56:20Z' })!;
    expect(later.slice(0, 10) > key.slice(0, 10)).toBe(true);
  });

  it('keys a redemption by its id and status: accepting it is a new event', () => {
    const pending = eventKeyOf('channel.reward.redemption.updated', redemption)!;
    expect(pending).toMatch(ULID);
    expect(eventKeyOf('channel.reward.redemption.updated', { ...redemption, status: 'accepted' })).not.toBe(pending);
  });

  it('tells types apart, and gives the same id under another type another key', () => {
    const asChat = eventKeyOf('chat.message.sent', { message_id: redemption.id, created_at: redemption.redeemed_at });
    expect(asChat).not.toBe(eventKeyOf('channel.reward.redemption.updated', redemption));
  });

  it('without a readable time is still a ULID, from the id alone', () => {
    for (const created_at of [undefined, 'yesterday', '9999999-01-01T00:00:00Z']) {
      expect(eventKeyOf('chat.message.sent', { ...chat, created_at })).toMatch(ULID);
    }
  });

  it('has no key for types without an id of their own, or for ids that are not ids', () => {
    expect(eventKeyOf('channel.followed', { follower: { user_id: 1 } })).toBeNull();
    expect(eventKeyOf('kicks.gifted', { created_at: chat.created_at })).toBeNull();
    for (const message_id of [undefined, '', 42, 'x'.repeat(129)]) {
      expect(eventKeyOf('chat.message.sent', { ...chat, message_id })).toBeNull();
    }
    expect(eventKeyOf('chat.message.sent', null)).toBeNull();
    expect(eventKeyOf('channel.reward.redemption.updated', { ...redemption, status: 7 })).toBeNull();
  });
});
