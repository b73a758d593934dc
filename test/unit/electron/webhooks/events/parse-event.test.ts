/**
 * Parsing accepted records into typed events: all ten types from the sandbox's builders, the looseness
 * of real payloads ([reference §5.4](../../../../../docs/kick-wire-reference.md#54-real-payloads-differ-from-the-docs-examples), [§5.7–5.8](../../../../../docs/kick-wire-reference.md#57-shared-user-objects-in-payloads)), and `unknown` (never a throw) for everything else.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { KICK_EVENT_TYPES, type KickEventType } from '../../../../../shared/kick/scopes';
import { hashBody } from '../../../../../electron/webhooks/dedup/dedup';
import { parseKickEvent } from '../../../../../electron/webhooks/events/parse-event';
import { projectRecord } from '../../../../../electron/history/history-projector';
import type { JournalRecord, KickEvent } from '../../../../../electron/webhooks/events/types';
import { samplePayloads } from '../../../../helpers/webhook-signing';

const payloads = samplePayloads();

function recordOf(type: string, body: unknown, version = '1'): JournalRecord {
  const text = typeof body === 'string' ? body : JSON.stringify(body);
  return {
    messageId: '01JQR8ZK5YB7V1N2C3D4E5F6G7',
    subscriptionId: '01JQR8ZK5YB7V1N2C3D4E5SUB1',
    type,
    version,
    timestamp: '2025-04-01T07:56:19Z',
    receivedAtMs: 1_743_494_180_000,
    bodyHash: hashBody(Buffer.from(text)),
    body: text,
  };
}

function known<T extends KickEventType>(type: T, body: unknown): Extract<KickEvent, { kind: 'known'; type: T }> {
  const event = parseKickEvent(recordOf(type, body));
  if (event.kind !== 'known') {
    throw new Error(`expected known, got: ${event.reason}`);
  }
  expect(event.type).toBe(type);
  return event as Extract<KickEvent, { kind: 'known'; type: T }>;
}

function reasonFor(type: string, body: unknown, version = '1'): string {
  const event = parseKickEvent(recordOf(type, body, version));
  if (event.kind !== 'unknown') {
    throw new Error('expected unknown');
  }
  return event.reason;
}

/** A deep copy with one path changed (or deleted when value is undefined). */
function withField(body: unknown, path: (string | number)[], value: unknown): unknown {
  const copy = structuredClone(body) as Record<string | number, unknown>;
  let node = copy;
  for (const key of path.slice(0, -1)) {
    node = node[key] as Record<string | number, unknown>;
  }
  const last = path[path.length - 1]!;
  if (value === undefined) {
    delete node[last];
  } else {
    node[last] = value;
  }
  return copy;
}

describe('parseKickEvent: the ten documented types', () => {
  it.each(KICK_EVENT_TYPES)('%s from the sandbox builder is known and keeps its payload', (type) => {
    const event = known(type, payloads[type]);
    expect(event).toMatchObject({
      kind: 'known',
      version: 1,
      messageId: '01JQR8ZK5YB7V1N2C3D4E5F6G7',
      subscriptionId: '01JQR8ZK5YB7V1N2C3D4E5SUB1',
      timestamp: '2025-04-01T07:56:19Z',
      receivedAtMs: 1_743_494_180_000,
    });
    expect(event.payload).toEqual(payloads[type]);
  });

  it('reads the chat specifics: identity, reply, emotes', () => {
    const event = known('chat.message.sent', payloads['chat.message.sent']);
    expect(event.payload.sender.identity?.username_color).toMatch(/^#/);
    expect(event.payload.replies_to?.sender.identity).toBeNull();
    expect(event.payload.emotes).toEqual([{ emote_id: '37226', positions: [{ s: 5, e: 22 }] }]);
  });

  it('reads an anonymous gifter whose other fields are null', () => {
    const event = known('channel.subscription.gifts', payloads['channel.subscription.gifts']);
    expect(event.payload.gifter).toMatchObject({ is_anonymous: true, user_id: null, username: null });
    expect(event.payload.giftees).toHaveLength(2);
  });
});

describe('parseKickEvent: tolerance of real payloads', () => {
  it('takes is_verified null and identity absent (the captured livestream.status.updated)', () => {
    let body = withField(payloads['livestream.status.updated'], ['broadcaster', 'is_verified'], null);
    body = withField(body, ['broadcaster', 'identity'], undefined);
    const event = known('livestream.status.updated', body);
    expect(event.payload.broadcaster.is_verified).toBeNull();
    expect('identity' in event.payload.broadcaster).toBe(false);
  });

  it('takes replies_to absent or null, emotes null or absent', () => {
    const chat = payloads['chat.message.sent'];
    expect(known('chat.message.sent', withField(chat, ['replies_to'], undefined)).payload.replies_to).toBeUndefined();
    expect(known('chat.message.sent', withField(chat, ['replies_to'], null)).payload.replies_to).toBeNull();
    expect(known('chat.message.sent', withField(chat, ['emotes'], null)).payload.emotes).toBeNull();
    expect(known('chat.message.sent', withField(chat, ['emotes'], undefined)).payload.emotes).toBeNull();
  });

  it('takes a live stream with ended_at null, and an ended one with a time', () => {
    const status = payloads['livestream.status.updated'];
    expect(known('livestream.status.updated', withField(status, ['ended_at'], null)).payload.ended_at).toBeNull();
    const ended = known('livestream.status.updated', withField(status, ['ended_at'], '2025-04-01T09:00:00Z'));
    expect(ended.payload.ended_at).toBe('2025-04-01T09:00:00Z');
  });

  it('keeps unknown keys, such as the deprecated capitalised Category beside category', () => {
    const meta = payloads['livestream.metadata.updated'];
    const body = withField(meta, ['metadata', 'Category'], { id: 7, name: 'Old', thumbnail: '' });
    const event = known('livestream.metadata.updated', withField(body, ['brand_new_field'], [1, 2]));
    expect(event.payload.metadata.category).toEqual(meta.metadata.category);
    expect((event.payload.metadata as unknown as Record<string, unknown>).Category).toEqual({
      id: 7,
      name: 'Old',
      thumbnail: '',
    });
    expect((event.payload as unknown as Record<string, unknown>).brand_new_field).toEqual([1, 2]);
  });

  it('reads an absent nullable user field as null', () => {
    const body = withField(payloads['channel.followed'], ['follower', 'channel_slug'], undefined);
    expect(known('channel.followed', body).payload.follower.channel_slug).toBeNull();
  });

  it('takes optional fields absent: expires_at, created_at, pinned_time_seconds, badge count', () => {
    known('channel.subscription.new', withField(payloads['channel.subscription.new'], ['expires_at'], undefined));
    known('chat.message.sent', withField(payloads['chat.message.sent'], ['created_at'], undefined));
    known('kicks.gifted', withField(payloads['kicks.gifted'], ['gift', 'pinned_time_seconds'], undefined));
    const badges = withField(
      payloads['chat.message.sent'],
      ['sender', 'identity', 'badges'],
      [
        { text: 'Moderator', type: 'moderator' },
        { text: 'Subscriber', type: 'subscriber', count: 3 },
      ],
    );
    expect(known('chat.message.sent', badges).payload.sender.identity?.badges).toHaveLength(2);
  });

  it('takes a timeout with an expiry and a permanent ban without', () => {
    const ban = payloads['moderation.banned'];
    expect(known('moderation.banned', ban).payload.metadata.expires_at).toBeNull();
    const timeout = withField(ban, ['metadata', 'expires_at'], '2025-04-01T08:06:19Z');
    expect(known('moderation.banned', timeout).payload.metadata.expires_at).toBe('2025-04-01T08:06:19Z');
  });
});

describe('parseKickEvent: unknown, never thrown', () => {
  it('keeps an unknown type or version as unknown with the payload and a reason', () => {
    const event = parseKickEvent(recordOf('channel.raided', { from: 'x' }));
    expect(event).toMatchObject({ kind: 'unknown', type: 'channel.raided', version: '1', payload: { from: 'x' } });
    expect(event.kind === 'unknown' && event.reason).toBe('unknown event type "channel.raided"');
    expect(reasonFor('chat.message.sent', payloads['chat.message.sent'], '2')).toBe(
      'unknown version "2" of chat.message.sent',
    );
  });

  it('names the missing or mistyped field of a known type', () => {
    const chat = payloads['chat.message.sent'];
    expect(reasonFor('chat.message.sent', withField(chat, ['content'], undefined))).toMatch(/^payload\.content: /);
    expect(reasonFor('chat.message.sent', withField(chat, ['sender', 'user_id'], '42'))).toMatch(
      /^payload\.sender\.user_id: /,
    );
    expect(reasonFor('chat.message.sent', withField(chat, ['emotes', 0, 'positions', 0, 's'], 1.5))).toMatch(
      /^payload\.emotes\[0\]\.positions\[0\]\.s: /,
    );
    const gifts = payloads['channel.subscription.gifts'];
    expect(reasonFor('channel.subscription.gifts', withField(gifts, ['giftees', 1, 'is_anonymous'], 'no'))).toMatch(
      /^payload\.giftees\[1\]\.is_anonymous: /,
    );
    const redemption = payloads['channel.reward.redemption.updated'];
    expect(reasonFor('channel.reward.redemption.updated', withField(redemption, ['status'], 'exploded'))).toMatch(
      /^payload\.status: /,
    );
    expect(reasonFor('kicks.gifted', withField(payloads['kicks.gifted'], ['sender', 'username'], null))).toMatch(
      /^payload\.sender\.username: /,
    );
    expect(
      reasonFor('livestream.metadata.updated', withField(payloads['livestream.metadata.updated'], ['metadata'], null)),
    ).toMatch(/^payload\.metadata: /);
  });

  it('reports bodies that are not JSON or not objects', () => {
    expect(reasonFor('channel.followed', '{"broadcaster":')).toMatch(/^body is not JSON/);
    expect(reasonFor('channel.followed', '[]')).toMatch(/^payload: /);
    expect(reasonFor('channel.followed', 'null')).toMatch(/^payload: /);
    expect(reasonFor('channel.followed', '"text"')).toMatch(/^payload: /);
  });

  it('never throws on arbitrary JSON for any type', () => {
    const samples: unknown[] = [
      0,
      true,
      {},
      { broadcaster: null },
      { broadcaster: [] },
      { metadata: { category: 'x' } },
      { __proto__: { is_live: true } },
      JSON.parse('{"__proto__": {"polluted": true}}'),
    ];
    for (const type of [...KICK_EVENT_TYPES, 'x']) {
      for (const sample of samples) {
        const event = parseKickEvent(recordOf(type, sample));
        expect(event.kind).toBe('unknown');
      }
    }
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});

describe('a record read again', () => {
  afterEach(() => vi.restoreAllMocks());

  /** How many times `JSON.parse` read this exact text while `work` ran. */
  function parsesOf(text: string, work: () => void): number {
    const parse = vi.spyOn(JSON, 'parse');
    work();
    const count = parse.mock.calls.filter(([arg]) => arg === text).length;
    parse.mockRestore();
    return count;
  }

  it('is read once when the history keeps the record the receiver showed', () => {
    const record = recordOf('chat.message.sent', payloads['chat.message.sent']);
    const payload = JSON.parse(record.body) as unknown;
    let shown: KickEvent | undefined;
    let kept: KickEvent | undefined;
    const count = parsesOf(record.body, () => {
      shown = parseKickEvent(record, { payload });
      kept = parseKickEvent(record);
      projectRecord(record, { startedAtMs: record.receivedAtMs - 60_000 });
    });
    expect(count).toBe(0);
    expect(kept).toBe(shown);
    expect(projectRecord(record, null).row.text).toBe(payloads['chat.message.sent'].content);
  });

  it('is read again once the record holds something else', () => {
    const record = recordOf('chat.message.sent', payloads['chat.message.sent']);
    const first = parseKickEvent(record);
    record.body = JSON.stringify({ ...payloads['chat.message.sent'], content: 'changed in place' });
    const again = parseKickEvent(record);
    expect(again).not.toBe(first);
    expect(again.kind === 'known' && again.type === 'chat.message.sent' && again.payload.content).toBe(
      'changed in place',
    );
    record.version = '2';
    expect(parseKickEvent(record).kind).toBe('unknown');
    record.version = '1';
    const moved = parseKickEvent({ ...record, receivedAtMs: record.receivedAtMs + 5 });
    expect(moved.receivedAtMs).toBe(record.receivedAtMs + 5);
    record.receivedAtMs += 7;
    record.messageId = 'another-delivery';
    expect(parseKickEvent(record)).toMatchObject({ receivedAtMs: record.receivedAtMs, messageId: 'another-delivery' });
  });

  it('reads a copy of a record on its own', () => {
    const record = recordOf('channel.followed', payloads['channel.followed']);
    const first = parseKickEvent(record);
    const copy = { ...record };
    expect(parsesOf(copy.body, () => parseKickEvent(copy))).toBe(1);
    expect(parseKickEvent(copy)).toEqual(first);
  });
});
