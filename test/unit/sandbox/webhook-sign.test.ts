import { createPublicKey, generateKeyPairSync, verify } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { createSigningKeys } from '../../../sandbox/index';
import type { SandboxKeys } from '../../../sandbox/context';
import {
  buildWebhookHeaders,
  buildWebhookHeadersAsync,
  signWebhook,
  WEBHOOK_USER_AGENT,
} from '../../../sandbox/webhooks/sign';

/** The receiver's check, written from [reference §5.3](../../../docs/kick-wire-reference.md#53-signature-algorithm) rather than from sign.ts. */
function verifies(pem: string, messageId: string, timestamp: string, body: Buffer, signature: string): boolean {
  const key = createPublicKey({ key: pem, format: 'pem', type: 'spki' });
  const signed = Buffer.concat([Buffer.from(`${messageId}.${timestamp}.`), body]);
  return verify('sha256', signed, key, Buffer.from(signature, 'base64'));
}

const MESSAGE_ID = '01JQNV3Z8X4G6M2T7B9C5D1E0F';
const TIMESTAMP = '2025-04-01T07:56:19Z';
const BODY = Buffer.from(JSON.stringify({ content: 'héllo 🎉 <b>', broadcaster: { user_id: 100001 } }), 'utf8');

let keys: SandboxKeys;

beforeAll(() => {
  // The same factory createSandbox uses; publicKeyPem is what GET /public/v1/public-key serves.
  keys = createSigningKeys();
});

describe('signWebhook', () => {
  it('produces standard padded base64 of an RSA-2048 PKCS#1 v1.5 SHA-256 signature that verifies', () => {
    const signature = signWebhook({
      messageId: MESSAGE_ID,
      timestamp: TIMESTAMP,
      body: BODY,
      privateKey: keys.privateKey,
    });
    expect(signature).toMatch(/^[A-Za-z0-9+/]{342}==$/);
    expect(verifies(keys.publicKeyPem, MESSAGE_ID, TIMESTAMP, BODY, signature)).toBe(true);
  });

  it('signs a string body as its UTF-8 bytes', () => {
    const signature = signWebhook({
      messageId: MESSAGE_ID,
      timestamp: TIMESTAMP,
      body: BODY.toString('utf8'),
      privateKey: keys.privateKey,
    });
    expect(verifies(keys.publicKeyPem, MESSAGE_ID, TIMESTAMP, BODY, signature)).toBe(true);
  });

  it('fails verification when the id, the timestamp or any single body byte changes', () => {
    const signature = signWebhook({
      messageId: MESSAGE_ID,
      timestamp: TIMESTAMP,
      body: BODY,
      privateKey: keys.privateKey,
    });
    expect(verifies(keys.publicKeyPem, `${MESSAGE_ID.slice(0, -1)}G`, TIMESTAMP, BODY, signature)).toBe(false);
    expect(verifies(keys.publicKeyPem, MESSAGE_ID, '2025-04-01T07:56:20Z', BODY, signature)).toBe(false);
    for (const index of [0, BODY.length >> 1, BODY.length - 1]) {
      const tampered = Buffer.from(BODY);
      tampered.writeUInt8(tampered.readUInt8(index) ^ 0x01, index);
      expect(verifies(keys.publicKeyPem, MESSAGE_ID, TIMESTAMP, tampered, signature), `byte ${index}`).toBe(false);
    }
    // Re-serialized JSON (even semantically equal) is not the signed bytes.
    const reserialized = Buffer.from(JSON.stringify(JSON.parse(BODY.toString()), null, 1));
    expect(verifies(keys.publicKeyPem, MESSAGE_ID, TIMESTAMP, reserialized, signature)).toBe(false);
  });

  it('does not verify under another key', () => {
    const other = generateKeyPairSync('rsa', { modulusLength: 2048 }).publicKey.export({ type: 'spki', format: 'pem' });
    const signature = signWebhook({
      messageId: MESSAGE_ID,
      timestamp: TIMESTAMP,
      body: BODY,
      privateKey: keys.privateKey,
    });
    expect(verifies(other.toString(), MESSAGE_ID, TIMESTAMP, BODY, signature)).toBe(false);
  });
});

describe('buildWebhookHeaders', () => {
  const input = () => ({
    messageId: MESSAGE_ID,
    subscriptionId: '01JQNV2K0000000000000000SB',
    eventType: 'chat.message.sent',
    eventVersion: 1,
    sentAtMs: Date.UTC(2025, 3, 1, 7, 56, 19, 987),
    body: BODY,
    privateKey: keys.privateKey,
  });

  it("returns exactly Kick's header set, with a whole-second RFC 3339 timestamp", () => {
    const headers = buildWebhookHeaders(input());
    expect(Object.keys(headers)).toEqual([
      'Content-Type',
      'Accept',
      'User-Agent',
      'Kick-Event-Message-Id',
      'Kick-Event-Subscription-Id',
      'Kick-Event-Signature',
      'Kick-Event-Message-Timestamp',
      'Kick-Event-Type',
      'Kick-Event-Version',
    ]);
    expect(headers).toMatchObject({
      'Content-Type': 'application/json',
      Accept: 'application/json',
      'User-Agent': WEBHOOK_USER_AGENT,
      'Kick-Event-Message-Id': MESSAGE_ID,
      'Kick-Event-Subscription-Id': '01JQNV2K0000000000000000SB',
      'Kick-Event-Message-Timestamp': TIMESTAMP,
      'Kick-Event-Type': 'chat.message.sent',
      'Kick-Event-Version': '1',
    });
    expect(WEBHOOK_USER_AGENT).toBe('Go-http-client/1.1');
  });

  it('signs over the header values it returns', () => {
    const headers = buildWebhookHeaders(input());
    const signature = headers['Kick-Event-Signature']!;
    expect(verifies(keys.publicKeyPem, MESSAGE_ID, headers['Kick-Event-Message-Timestamp']!, BODY, signature)).toBe(
      true,
    );
  });

  it('builds the same headers off the main thread (PKCS#1 v1.5 signatures are deterministic)', async () => {
    const headers = await buildWebhookHeadersAsync(input());
    expect(headers).toEqual(buildWebhookHeaders(input()));
    expect(verifies(keys.publicKeyPem, MESSAGE_ID, TIMESTAMP, BODY, headers['Kick-Event-Signature']!)).toBe(true);
  });
});
