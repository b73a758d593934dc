/** The six `Kick-Event-*` headers: presence, single value, length, characters and the timestamp grammar. */
import { describe, expect, it } from 'vitest';
import { KICK_EVENT_HEADERS } from '../../../../../shared/kick/events';
import { MAX_HEADER_BYTES, readDeliveryHeaders } from '../../../../../electron/webhooks/receive/read-headers';
import { signedBytes } from '../../../../../electron/webhooks/receive/verify-signature';

const VALID = {
  [KICK_EVENT_HEADERS.messageId]: ['01JQR8ZK5YB7V1N2C3D4E5F6G7'],
  [KICK_EVENT_HEADERS.subscriptionId]: ['01JQR8ZK5YB7V1N2C3D4E5SUB1'],
  [KICK_EVENT_HEADERS.signature]: ['c2lnbmF0dXJl'],
  [KICK_EVENT_HEADERS.timestamp]: ['2025-04-01T07:56:19Z'],
  [KICK_EVENT_HEADERS.type]: ['chat.message.sent'],
  [KICK_EVENT_HEADERS.version]: ['1'],
  'content-type': ['application/json'],
};

const NAMES = {
  messageId: 'Kick-Event-Message-Id',
  subscriptionId: 'Kick-Event-Subscription-Id',
  signature: 'Kick-Event-Signature',
  timestamp: 'Kick-Event-Message-Timestamp',
  type: 'Kick-Event-Type',
  version: 'Kick-Event-Version',
} as const;

function failure(headers: Record<string, string[] | undefined>): { code: string; status: number; message: string } {
  const result = readDeliveryHeaders(headers);
  if (result.ok) {
    throw new Error('expected a rejection');
  }
  return { code: result.error.code, status: result.error.status, message: result.error.message };
}

describe('readDeliveryHeaders', () => {
  it('returns the six values and the parsed timestamp', () => {
    const result = readDeliveryHeaders(VALID);
    expect(result).toEqual({
      ok: true,
      value: {
        headers: {
          messageId: '01JQR8ZK5YB7V1N2C3D4E5F6G7',
          subscriptionId: '01JQR8ZK5YB7V1N2C3D4E5SUB1',
          signature: 'c2lnbmF0dXJl',
          timestamp: '2025-04-01T07:56:19Z',
          type: 'chat.message.sent',
          version: '1',
        },
        timestampMs: Date.UTC(2025, 3, 1, 7, 56, 19),
      },
    });
  });

  for (const [field, wire] of Object.entries(KICK_EVENT_HEADERS)) {
    const name = NAMES[field as keyof typeof NAMES];

    it(`rejects a missing ${name} with 400 naming it`, () => {
      expect(failure({ ...VALID, [wire]: undefined })).toEqual({
        code: 'WebhookHeaders',
        status: 400,
        message: `${name}: missing`,
      });
      expect(failure({ ...VALID, [wire]: [] }).message).toBe(`${name}: missing`);
    });

    it(`rejects ${name} sent twice, empty, too long or with non-ASCII`, () => {
      const value = VALID[wire][0]!;
      expect(failure({ ...VALID, [wire]: [value, value] }).message).toBe(`${name}: sent 2 times`);
      expect(failure({ ...VALID, [wire]: [''] }).message).toBe(`${name}: empty`);
      expect(failure({ ...VALID, [wire]: ['x'.repeat(MAX_HEADER_BYTES + 1)] }).message).toBe(
        `${name}: longer than ${MAX_HEADER_BYTES} bytes`,
      );
      expect(failure({ ...VALID, [wire]: ['caf\u00e9'] }).message).toBe(`${name}: not printable ASCII`);
      expect(failure({ ...VALID, [wire]: ['two words'] }).message).toBe(`${name}: not printable ASCII`);
    });
  }

  it('accepts a value of exactly the maximum length', () => {
    const result = readDeliveryHeaders({ ...VALID, [KICK_EVENT_HEADERS.type]: ['t'.repeat(MAX_HEADER_BYTES)] });
    expect(result.ok).toBe(true);
  });

  it('rejects a message id containing "." (it would make the signed string ambiguous)', () => {
    // "a.b" + "." + ts + "." + body and "a" + "." + "b.ts" + "." + body are the same bytes.
    const body = Buffer.from('{}');
    expect(signedBytes('a.b', 'T', body).equals(signedBytes('a', 'b.T', body))).toBe(true);
    expect(failure({ ...VALID, [KICK_EVENT_HEADERS.messageId]: ['01J.X'] }).message).toBe(
      'Kick-Event-Message-Id: contains "."',
    );
  });

  it('rejects a timestamp that is not RFC 3339', () => {
    for (const bad of ['2025-04-01T07:56:19', 'yesterday', '1743494179', '2025-02-30T00:00:00Z']) {
      expect(failure({ ...VALID, [KICK_EVENT_HEADERS.timestamp]: [bad] }).message).toBe(
        'Kick-Event-Message-Timestamp: not an RFC 3339 date-time',
      );
    }
  });

  it('names the first problem when several headers are wrong', () => {
    expect(failure({}).message).toBe('Kick-Event-Message-Id: missing');
  });
});
