import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { isUlid } from '../../../electron/core/ids';
import { chatMessagePayload, emitEvent, followPayload } from '../../../sandbox/events/payloads';
import type { Sandbox } from '../../../sandbox/index';
import type { SandboxChatMessage } from '../../../sandbox/state';
import { FIRST_OTHER_STREAMER_USER_ID, FIRST_VIEWER_USER_ID, STREAMER_USER_ID } from '../../../sandbox/world';
import { addApp, header, signatureVerifies, START_MS, startFrozenSandbox, subscribe } from './delivery-fixtures';
import { rawHeaderNames, type ReceivedRequest, type Receiver, startReceiver } from './webhook-receiver';

let sandbox: Sandbox;
let receiver: Receiver;
const extraReceivers: Receiver[] = [];

beforeEach(async () => {
  receiver = await startReceiver();
  sandbox = await startFrozenSandbox();
  sandbox.ctx.app.webhookUrl = receiver.url;
});

afterEach(async () => {
  await sandbox.close();
  await receiver.close();
  for (const r of extraReceivers.splice(0)) {
    await r.close();
  }
});

function follow(followerUserId = FIRST_VIEWER_USER_ID, broadcasterUserId = STREAMER_USER_ID): void {
  const { state } = sandbox.ctx;
  emitEvent(state, 'channel.followed', broadcasterUserId, followPayload(state, broadcasterUserId, followerUserId));
}

/** The chat `message_id` inside a delivered body. */
function messageIdOf(request: ReceivedRequest): string {
  return (JSON.parse(request.body.toString()) as { message_id: string }).message_id;
}

function chatMessage(content: string): SandboxChatMessage {
  return {
    messageId: '0f9e3c4a-7a1b-4c55-9a3e-5d2f8e1b6c70',
    broadcasterUserId: STREAMER_USER_ID,
    senderUserId: FIRST_VIEWER_USER_ID,
    content,
    type: 'user',
    replyToMessageId: null,
    createdAtMs: sandbox.ctx.clock.now(),
    deleted: false,
  };
}

describe('webhook delivery: wire format', () => {
  it('POSTs the payload bytes to the app URL with exactly Kick headers, signed with the served key', async () => {
    const subscription = subscribe(sandbox, 'chat.message.sent');
    const payload = chatMessagePayload(sandbox.ctx.state, chatMessage('héllo 🎉 <b>&"quotes"</b> [emote:37226:KEKW]'));
    emitEvent(sandbox.ctx.state, 'chat.message.sent', STREAMER_USER_ID, payload);
    expect(sandbox.delivery.pendingCount()).toBe(1);
    expect(receiver.requests).toHaveLength(0);

    await sandbox.delivery.flush();

    expect(receiver.requests).toHaveLength(1);
    const request = receiver.requests[0]!;
    expect(request.method).toBe('POST');
    expect(request.path).toBe('/kick/webhook');
    expect(request.body.equals(Buffer.from(JSON.stringify(payload), 'utf8'))).toBe(true);
    // Kick's nine headers in Go's canonical case; the rest are the transport's own (host, length, keep-alive).
    const kickHeaders = [
      'Content-Type',
      'Accept',
      'User-Agent',
      'Kick-Event-Message-Id',
      'Kick-Event-Subscription-Id',
      'Kick-Event-Signature',
      'Kick-Event-Message-Timestamp',
      'Kick-Event-Type',
      'Kick-Event-Version',
    ];
    expect(rawHeaderNames(request).sort()).toEqual([...kickHeaders, 'connection', 'content-length', 'host'].sort());
    expect(header(request, 'content-type')).toBe('application/json');
    expect(header(request, 'accept')).toBe('application/json');
    expect(header(request, 'user-agent')).toBe('Go-http-client/1.1');
    expect(header(request, 'content-length')).toBe(String(request.body.length));
    expect(isUlid(header(request, 'Kick-Event-Message-Id'))).toBe(true);
    expect(header(request, 'Kick-Event-Subscription-Id')).toBe(subscription.id);
    expect(header(request, 'Kick-Event-Message-Timestamp')).toBe('2025-04-01T07:56:19Z');
    expect(header(request, 'Kick-Event-Type')).toBe('chat.message.sent');
    expect(header(request, 'Kick-Event-Version')).toBe('1');
    expect(header(request, 'Kick-Event-Signature')).toMatch(/^[A-Za-z0-9+/]{342}==$/);
    expect(signatureVerifies(sandbox.ctx.keys.publicKeyPem, request)).toBe(true);

    expect(sandbox.delivery.pendingCount()).toBe(0);
    expect(sandbox.delivery.attempts).toEqual([
      {
        messageId: header(request, 'Kick-Event-Message-Id'),
        subscriptionId: subscription.id,
        clientId: sandbox.ctx.app.clientId,
        eventType: 'chat.message.sent',
        url: receiver.url,
        attemptedAtMs: START_MS,
        status: 200,
        error: null,
        attemptNumber: 1,
        eventAtMs: START_MS,
        messageTimestamp: '2025-04-01T07:56:19Z',
        delivered: true,
      },
    ]);
  });

  it('rejects a tampered delivery under the same key (the signature covers id, timestamp and body)', async () => {
    subscribe(sandbox, 'channel.followed');
    follow();
    await sandbox.delivery.flush();
    const request = receiver.requests[0]!;
    const pem = sandbox.ctx.keys.publicKeyPem;
    const tampered = Buffer.from(request.body);
    tampered.writeUInt8(tampered.readUInt8(tampered.length - 2) ^ 1, tampered.length - 2);
    expect(signatureVerifies(pem, { ...request, body: tampered })).toBe(false);
    const laterTimestamp = { ...request.headers, 'kick-event-message-timestamp': '2025-04-01T07:56:20Z' };
    expect(signatureVerifies(pem, { ...request, headers: laterTimestamp })).toBe(false);
  });
});

describe('webhook delivery: who receives', () => {
  it('delivers only to subscriptions matching the event type, version and broadcaster', async () => {
    const wanted = subscribe(sandbox, 'channel.followed');
    subscribe(sandbox, 'channel.followed', { broadcasterUserId: FIRST_OTHER_STREAMER_USER_ID });
    subscribe(sandbox, 'chat.message.sent');
    subscribe(sandbox, 'channel.followed', { version: 2 });

    follow();
    await sandbox.delivery.flush();

    expect(receiver.requests.map((r) => header(r, 'Kick-Event-Subscription-Id'))).toEqual([wanted.id]);
    expect(header(receiver.requests[0], 'Kick-Event-Type')).toBe('channel.followed');
  });

  it('sends each app its own delivery and nothing to apps with webhooks off or no URL', async () => {
    const second = await startReceiver('/second');
    extraReceivers.push(second);
    const otherApp = addApp(sandbox, 'other', second.url);
    const disabledApp = addApp(sandbox, 'disabled', receiver.url, false);
    const urlLessApp = addApp(sandbox, 'no-url', null);
    const own = subscribe(sandbox, 'channel.followed');
    const others = subscribe(sandbox, 'channel.followed', { app: otherApp });
    subscribe(sandbox, 'channel.followed', { app: disabledApp });
    subscribe(sandbox, 'channel.followed', { app: urlLessApp });

    follow();
    expect(sandbox.delivery.pendingCount()).toBe(2);
    await sandbox.delivery.flush();

    expect(receiver.requests.map((r) => header(r, 'Kick-Event-Subscription-Id'))).toEqual([own.id]);
    expect(second.requests.map((r) => header(r, 'Kick-Event-Subscription-Id'))).toEqual([others.id]);
    expect(second.requests[0]!.body.equals(receiver.requests[0]!.body)).toBe(true);
    expect(sandbox.delivery.attempts.map((a) => a.clientId).sort()).toEqual(
      [sandbox.ctx.app.clientId, otherApp.clientId].sort(),
    );
  });

  it('delivers twice with different message ids when the same subscription exists twice', async () => {
    const first = subscribe(sandbox, 'channel.followed');
    const second = subscribe(sandbox, 'channel.followed');
    follow();
    await sandbox.delivery.flush();

    expect(receiver.requests).toHaveLength(2);
    const [a, b] = receiver.requests;
    expect(new Set([header(a, 'Kick-Event-Subscription-Id'), header(b, 'Kick-Event-Subscription-Id')])).toEqual(
      new Set([first.id, second.id]),
    );
    expect(header(a, 'Kick-Event-Message-Id')).not.toBe(header(b, 'Kick-Event-Message-Id'));
  });
});

describe('webhook delivery: injected faults', () => {
  function emitFollowWith(delivery: { duplicates?: number; resendWithNewId?: boolean; delaySeconds?: number }) {
    const { state } = sandbox.ctx;
    const payload = followPayload(state, STREAMER_USER_ID, FIRST_VIEWER_USER_ID);
    state.emit({ type: 'channel.followed', version: 1, broadcasterUserId: STREAMER_USER_ID, payload, delivery });
  }

  it('sends duplicates under the same message id with the same body', async () => {
    subscribe(sandbox, 'channel.followed');
    emitFollowWith({ duplicates: 2 });
    expect(sandbox.delivery.pendingCount()).toBe(3);
    await sandbox.delivery.flush();

    expect(receiver.requests).toHaveLength(3);
    const ids = new Set(receiver.requests.map((r) => header(r, 'Kick-Event-Message-Id')));
    expect(ids.size).toBe(1);
    for (const request of receiver.requests) {
      expect(request.body.equals(receiver.requests[0]!.body)).toBe(true);
      expect(signatureVerifies(sandbox.ctx.keys.publicKeyPem, request)).toBe(true);
    }
  });

  it('re-sends the identical body under a new message id when asked (resendWithNewId)', async () => {
    const subscription = subscribe(sandbox, 'channel.followed');
    emitFollowWith({ resendWithNewId: true });
    await sandbox.delivery.flush();

    expect(receiver.requests).toHaveLength(2);
    const [original, resent] = receiver.requests;
    expect(header(original, 'Kick-Event-Message-Id')).not.toBe(header(resent, 'Kick-Event-Message-Id'));
    expect(isUlid(header(resent, 'Kick-Event-Message-Id'))).toBe(true);
    expect(resent!.body.equals(original!.body)).toBe(true);
    expect(header(resent, 'Kick-Event-Subscription-Id')).toBe(subscription.id);
    expect(signatureVerifies(sandbox.ctx.keys.publicKeyPem, resent!)).toBe(true);
  });

  it('holds a delayed event back so a later event overtakes it; its created_at shows the lag, not its header', async () => {
    subscribe(sandbox, 'chat.message.sent');
    const { state } = sandbox.ctx;
    const late = chatMessagePayload(state, { ...chatMessage('first, but late'), messageId: 'late' });
    const prompt = chatMessagePayload(state, { ...chatMessage('second, on time'), messageId: 'prompt' });
    state.emit({
      type: 'chat.message.sent',
      version: 1,
      broadcasterUserId: STREAMER_USER_ID,
      payload: late,
      delivery: { delaySeconds: 30 },
    });
    emitEvent(state, 'chat.message.sent', STREAMER_USER_ID, prompt);

    await sandbox.delivery.flush();
    expect(receiver.requests.map((r) => messageIdOf(r))).toEqual(['prompt']);
    expect(sandbox.delivery.pendingCount()).toBe(1);

    sandbox.ctx.clock.advance(29_999);
    await sandbox.delivery.flush();
    expect(receiver.requests).toHaveLength(1);

    sandbox.ctx.clock.advance(1);
    await sandbox.delivery.flush();
    expect(receiver.requests.map((r) => messageIdOf(r))).toEqual(['prompt', 'late']);
    const delivered = receiver.requests[1]!;
    expect(JSON.parse(delivered.body.toString()).created_at).toBe('2025-04-01T07:56:19.000Z');
    // As Kick does: the header is the send time, so only the payload's created_at shows the 30 s in the queue.
    expect(header(delivered, 'Kick-Event-Message-Timestamp')).toBe('2025-04-01T07:56:49Z');
    expect(signatureVerifies(sandbox.ctx.keys.publicKeyPem, delivered)).toBe(true);
    expect(sandbox.delivery.attempts[1]).toMatchObject({ eventAtMs: START_MS, attemptedAtMs: START_MS + 30_000 });
  });
});
