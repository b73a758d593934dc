/**
 * Kick's webhook signature and header set ([reference §5.2–5.3](../../docs/kick-wire-reference.md#52-headers-on-event-webhooks)): RSASSA-PKCS1-v1_5 with SHA-256 over
 * `messageId.timestamp.rawBody`, sent as standard padded base64. Kept apart from the engine so a unit test
 * can check it against Node's `crypto.verify` and the PEM that `GET /public/v1/public-key` serves.
 */
import { type KeyObject, sign } from 'node:crypto';
import { toRfc3339Seconds } from '../../electron/core/clock';
import type { Signer } from './signer';

/** Kick's sender is a Go service; its default client announces itself like this ([reference §5.1](../../docs/kick-wire-reference.md#51-configuration-and-delivery)). */
export const WEBHOOK_USER_AGENT = 'Go-http-client/1.1';

/** What goes into one signature. */
export interface WebhookSignatureInput {
  messageId: string;
  /** The exact `Kick-Event-Message-Timestamp` header value. */
  timestamp: string;
  /** The exact body bytes sent (a string is taken as UTF-8). */
  body: string | Buffer;
  privateKey: KeyObject;
}

/**
 * Signs one delivery. The signed bytes are `${messageId}.${timestamp}.` followed by the raw body, so the
 * receiver must verify before any JSON parsing ([reference §5.3](../../docs/kick-wire-reference.md#53-signature-algorithm)).
 */
export function signWebhook(input: WebhookSignatureInput): string {
  // PKCS#1 v1.5 is Node's default padding for RSA keys; SHA-256 is named explicitly.
  return sign('sha256', signedBytes(input), input.privateKey).toString('base64');
}

/**
 * The same signature computed on libuv's thread pool. An RSA-2048 signature costs about 0.4 ms of CPU, so
 * a sender delivering thousands a second (and the embedded sandbox, which shares the app's event loop)
 * signs off the main thread.
 */
export function signWebhookAsync(input: WebhookSignatureInput): Promise<string> {
  return new Promise((resolve, reject) => {
    sign('sha256', signedBytes(input), input.privateKey, (error, signature) =>
      error ? reject(error) : resolve(signature.toString('base64')),
    );
  });
}

/** The bytes Kick signs: `${messageId}.${timestamp}.` followed by the raw body. */
export function signedBytes(input: Omit<WebhookSignatureInput, 'privateKey'>): Buffer {
  const body = typeof input.body === 'string' ? Buffer.from(input.body, 'utf8') : input.body;
  return Buffer.concat([Buffer.from(`${input.messageId}.${input.timestamp}.`, 'utf8'), body]);
}

/** Everything that identifies one attempt of one message. */
export interface WebhookHeaderInput {
  messageId: string;
  subscriptionId: string;
  eventType: string;
  eventVersion: number;
  /** When this attempt is sent; becomes `Kick-Event-Message-Timestamp` at whole-second precision. */
  sentAtMs: number;
  body: string | Buffer;
  privateKey: KeyObject;
}

/**
 * The complete header set of an event webhook, spelled as Kick sends it (Go canonical case). The
 * timestamp is derived here so the signed value and the sent value can never differ.
 */
export function buildWebhookHeaders(input: WebhookHeaderInput): Record<string, string> {
  const timestamp = toRfc3339Seconds(input.sentAtMs);
  return headersWith(input, timestamp, signWebhook({ ...input, timestamp }));
}

/**
 * {@link buildWebhookHeaders} with the signature computed off the main thread: by `signer` (the delivery
 * engine's own thread, `signer.ts`) or else on libuv's pool ({@link signWebhookAsync}).
 */
export async function buildWebhookHeadersAsync(
  input: WebhookHeaderInput,
  signer?: Signer,
): Promise<Record<string, string>> {
  const timestamp = toRfc3339Seconds(input.sentAtMs);
  const signature = signer
    ? await signer.sign(signedBytes({ ...input, timestamp }))
    : await signWebhookAsync({ ...input, timestamp });
  return headersWith(input, timestamp, signature);
}

function headersWith(input: WebhookHeaderInput, timestamp: string, signature: string): Record<string, string> {
  return {
    'Content-Type': 'application/json',
    Accept: 'application/json',
    'User-Agent': WEBHOOK_USER_AGENT,
    'Kick-Event-Message-Id': input.messageId,
    'Kick-Event-Subscription-Id': input.subscriptionId,
    'Kick-Event-Signature': signature,
    'Kick-Event-Message-Timestamp': timestamp,
    'Kick-Event-Type': input.eventType,
    'Kick-Event-Version': String(input.eventVersion),
  };
}
