/**
 * Signs webhook deliveries as Kick does ([reference §5.3](../../docs/kick-wire-reference.md#53-signature-algorithm): RSASSA-PKCS1-v1_5, SHA-256, over
 * `${id}.${timestamp}.${rawBody}`, standard padded base64) and posts them, for the receiver's tests and
 * benchmark. Written independently of the sandbox's signer so the two cross-check each other.
 */
import { generateKeyPairSync, type KeyObject, randomBytes, sign } from 'node:crypto';
import { type Dispatcher, request } from 'undici';
import { toRfc3339Seconds } from '../../electron/core/clock';
import {
  banPayload,
  chatMessagePayload,
  followPayload,
  giftsPayload,
  KICK_GIFTS,
  kicksPayload,
  metadataPayload,
  redemptionPayload,
  statusPayload,
  subscriptionPayload,
} from '../../sandbox/events/payloads';
import { type SandboxChatMessage, SandboxState } from '../../sandbox/state';
import { createWorld, FIRST_VIEWER_USER_ID, MODERATOR_USER_ID, STREAMER_USER_ID } from '../../sandbox/world';
import type { KickEventPayloads } from '../../shared/kick/events';

/** An RSA key pair as Kick would hold it, with the PEM `GET /public/v1/public-key` serves. */
export interface TestSigningKey {
  privateKey: KeyObject;
  publicKey: KeyObject;
  publicKeyPem: string;
}

/** A fresh RSA key (2048-bit by default: what Kick uses). Generating one costs ~100 ms; share per file. */
export function createTestKey(modulusLength = 2048): TestSigningKey {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength, publicExponent: 0x10001 });
  return { privateKey, publicKey, publicKeyPem: publicKey.export({ type: 'spki', format: 'pem' }).toString() };
}

/** The base64 signature of one delivery. */
export function signDelivery(
  messageId: string,
  timestamp: string,
  body: Buffer | string,
  privateKey: KeyObject,
): string {
  const bytes = typeof body === 'string' ? Buffer.from(body, 'utf8') : body;
  return sign('sha256', Buffer.concat([Buffer.from(`${messageId}.${timestamp}.`, 'utf8'), bytes]), privateKey).toString(
    'base64',
  );
}

/** One delivery ready to post: the headers (wire names) and the exact body bytes. */
export interface TestDelivery {
  headers: Record<string, string>;
  body: Buffer;
  messageId: string;
  timestamp: string;
}

export interface DeliveryInput {
  type: string;
  /** A value is JSON-serialised; a string or Buffer is sent as is. */
  payload: unknown;
  privateKey: KeyObject;
  version?: string;
  messageId?: string;
  subscriptionId?: string;
  /** Epoch ms for the timestamp header (whole seconds, as Kick writes it); ignored when `timestamp` is given. */
  atMs?: number;
  timestamp?: string;
}

let sequence = 0;

/** A ULID-shaped id that is unique within the test run. */
export function testMessageId(): string {
  sequence++;
  return `01TEST${sequence.toString(36).toUpperCase().padStart(8, '0')}${randomBytes(6).toString('hex').toUpperCase()}`;
}

/** Builds and signs one delivery with Kick's full header set. */
export function buildDelivery(input: DeliveryInput): TestDelivery {
  const body = Buffer.isBuffer(input.payload)
    ? input.payload
    : Buffer.from(typeof input.payload === 'string' ? input.payload : JSON.stringify(input.payload), 'utf8');
  const messageId = input.messageId ?? testMessageId();
  const timestamp = input.timestamp ?? toRfc3339Seconds(input.atMs ?? Date.now());
  return {
    messageId,
    timestamp,
    body,
    headers: {
      'Content-Type': 'application/json',
      Accept: 'application/json',
      'User-Agent': 'Go-http-client/1.1',
      'Kick-Event-Message-Id': messageId,
      'Kick-Event-Subscription-Id': input.subscriptionId ?? '01TESTSUBSCRIPT10N000000000',
      'Kick-Event-Signature': signDelivery(messageId, timestamp, body, input.privateKey),
      'Kick-Event-Message-Timestamp': timestamp,
      'Kick-Event-Type': input.type,
      'Kick-Event-Version': input.version ?? '1',
    },
  };
}

/** What the receiver answered. */
export interface PostResult {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
}

/**
 * Posts a body with the given headers (an object, or flat `[name, value, …]` pairs to send a header twice)
 * and reads the whole answer.
 */
export async function postRaw(
  url: string,
  headers: Record<string, string> | string[],
  body: Buffer | string | undefined,
  options: { method?: string; dispatcher?: Dispatcher } = {},
): Promise<PostResult> {
  const res = await request(url, {
    method: (options.method ?? 'POST') as 'POST',
    headers,
    body,
    dispatcher: options.dispatcher,
  });
  return { status: res.statusCode, headers: res.headers, text: await res.body.text() };
}

/** Posts a built delivery. */
export function postDelivery(url: string, delivery: TestDelivery, dispatcher?: Dispatcher): Promise<PostResult> {
  return postRaw(url, delivery.headers, delivery.body, { dispatcher });
}

// --- Realistic payloads ---

/**
 * One payload of each of the ten event types, built by the sandbox's own builders from a fresh sandbox
 * world (so they carry the looseness of real deliveries: anonymous gifter, null `identity` on non-chat
 * users, a reply with a sender without identity, null `ended_at`, null ban expiry).
 */
export function samplePayloads(nowMs = Date.UTC(2025, 3, 1, 7, 56, 19)): KickEventPayloads {
  const state = new SandboxState({ now: () => nowMs }, { accessSeconds: 3600, codeSeconds: 600 });
  createWorld(state, { assetBaseUrl: 'http://127.0.0.1:9' });
  const viewer = FIRST_VIEWER_USER_ID;
  const channel = state.channels.get(STREAMER_USER_ID)!;
  const parent: SandboxChatMessage = {
    messageId: '6f0c1c5e-1d5e-4a55-9a37-5d1f0b0a0001',
    broadcasterUserId: STREAMER_USER_ID,
    senderUserId: viewer + 1,
    content: 'first!',
    type: 'user',
    replyToMessageId: null,
    createdAtMs: nowMs - 5000,
    deleted: false,
  };
  state.chatMessages.set(parent.messageId, parent);
  const chat = chatMessagePayload(state, {
    ...parent,
    messageId: '6f0c1c5e-1d5e-4a55-9a37-5d1f0b0a0002',
    senderUserId: viewer,
    content: 'nice [emote:37226:KEKW] one',
    replyToMessageId: parent.messageId,
    createdAtMs: nowMs,
  });
  return {
    'chat.message.sent': chat,
    'channel.followed': followPayload(state, STREAMER_USER_ID, viewer + 2),
    'channel.subscription.new': subscriptionPayload(state, STREAMER_USER_ID, viewer + 3, 1),
    'channel.subscription.renewal': subscriptionPayload(state, STREAMER_USER_ID, viewer + 4, 3),
    'channel.subscription.gifts': giftsPayload(state, STREAMER_USER_ID, null, [viewer + 5, viewer + 6]),
    'channel.reward.redemption.updated': redemptionPayload(state, {
      id: '01JQR8ZK5YB7V1N2C3D4REDEEM',
      rewardId: '01JQR8ZK5YB7V1N2C3D4REWARD',
      broadcasterUserId: STREAMER_USER_ID,
      redeemerUserId: viewer + 7,
      userInput: 'play the song',
      status: 'pending',
      redeemedAtMs: nowMs,
    }),
    'livestream.status.updated': statusPayload(state, channel),
    'livestream.metadata.updated': metadataPayload(state, channel),
    'moderation.banned': banPayload(state, {
      broadcasterUserId: STREAMER_USER_ID,
      userId: viewer + 8,
      moderatorUserId: MODERATOR_USER_ID,
      reason: 'spam',
      createdAtMs: nowMs,
      expiresAtMs: null,
    }),
    'kicks.gifted': kicksPayload(state, STREAMER_USER_ID, viewer + 9, KICK_GIFTS[2], 'gg'),
  };
}
