/**
 * The `foreign-channel` scenario over the admin API: another developer's app, pointed at this app's
 * webhook URL, sends its own channel's follow and chat. Each delivery is real and signed with the
 * sandbox's one key (what Kick does for every app), names another broadcaster, and carries a subscription
 * id of the other app, never one of this app's.
 */
import { createPublicKey, verify } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FOREIGN_CHANNEL_USER_ID, FOREIGN_CLIENT_ID } from '../../../sandbox/admin/foreign-channel';
import type { Sandbox } from '../../../sandbox/index';
import { STREAMER_USER_ID } from '../../../sandbox/world';
import { call, callAdmin, mintAppToken, startSandbox } from '../../helpers/sandbox';
import { type Receiver, startReceiver } from './webhook-receiver';

let sandbox: Sandbox;
let receiver: Receiver;

beforeEach(async () => {
  sandbox = await startSandbox({ delivery: { tickMs: 0 } });
  receiver = await startReceiver();
});

afterEach(async () => {
  await sandbox.close();
  await receiver.close();
});

interface AdminSubscription {
  id: string;
  client_id: string;
  broadcaster_user_id: number;
  event: string;
}

const subscriptionsOf = async (clientId: string): Promise<AdminSubscription[]> =>
  (await callAdmin(sandbox, 'GET', '/subscriptions', { query: [['client_id', clientId]] })).json
    .subscriptions as AdminSubscription[];

describe('scenario foreign-channel', () => {
  it("sends another channel's signed follow and chat to this app's webhook URL, under the other app's subscriptions", async () => {
    sandbox.ctx.app.webhookUrl = receiver.url;
    // This app's own subscriptions, for its streamer, as Greenroom makes them.
    const own = await call(sandbox.urls.api, 'POST', '/public/v1/events/subscriptions', {
      token: mintAppToken(sandbox),
      body: {
        method: 'webhook',
        broadcaster_user_id: STREAMER_USER_ID,
        events: [
          { name: 'channel.followed', version: 1 },
          { name: 'chat.message.sent', version: 1 },
        ],
      },
    });
    expect(own.status, own.text).toBe(200);

    const res = await callAdmin(sandbox, 'POST', '/scenarios/foreign-channel', { body: { immediate: true } });
    expect(res.status, res.text).toBe(200);
    expect(res.json).toEqual({ scenario: 'foreign-channel', fired: 4 });
    await sandbox.delivery.flush();

    const ours = new Set((await subscriptionsOf(sandbox.ctx.app.clientId)).map((s) => s.id));
    const theirs = await subscriptionsOf(FOREIGN_CLIENT_ID);
    expect(theirs.map((s) => [s.event, s.broadcaster_user_id]).sort()).toEqual([
      ['channel.followed', FOREIGN_CHANNEL_USER_ID],
      ['chat.message.sent', FOREIGN_CHANNEL_USER_ID],
    ]);
    const key = createPublicKey(sandbox.ctx.keys.publicKeyPem);
    expect(receiver.requests).toHaveLength(4);
    for (const request of receiver.requests) {
      const header = (name: string): string => request.headers[name] as string;
      const signed = Buffer.concat([
        Buffer.from(`${header('kick-event-message-id')}.${header('kick-event-message-timestamp')}.`),
        request.body,
      ]);
      expect(verify('sha256', signed, key, Buffer.from(header('kick-event-signature'), 'base64'))).toBe(true);
      expect(ours.has(header('kick-event-subscription-id'))).toBe(false);
      expect(theirs.map((s) => s.id)).toContain(header('kick-event-subscription-id'));
      const payload = JSON.parse(request.body.toString('utf8')) as { broadcaster: { user_id: number } };
      expect(payload.broadcaster.user_id).toBe(FOREIGN_CHANNEL_USER_ID);
    }
    const types = receiver.requests.map((r) => r.headers['kick-event-type']);
    expect(types.sort()).toEqual(['channel.followed', 'chat.message.sent', 'chat.message.sent', 'chat.message.sent']);
    const contents = receiver.requests
      .filter((r) => r.headers['kick-event-type'] === 'chat.message.sent')
      .map((r) => (JSON.parse(r.body.toString('utf8')) as { content: string }).content);
    expect(contents).toContain('!discord');

    // Again: the same app and subscriptions, no duplicates of either.
    await callAdmin(sandbox, 'POST', '/scenarios/foreign-channel', { body: { immediate: true } });
    expect(await subscriptionsOf(FOREIGN_CLIENT_ID)).toHaveLength(2);
    expect([...sandbox.ctx.state.apps.keys()].filter((id) => id === FOREIGN_CLIENT_ID)).toHaveLength(1);
  });

  it('is refused, naming why, when this app has no webhook URL or the target is the other app’s channel', async () => {
    sandbox.ctx.app.webhookUrl = null;
    const none = await callAdmin(sandbox, 'POST', '/scenarios/foreign-channel', { body: { immediate: true } });
    expect(none.status).toBe(400);
    expect(none.json.error).toMatch(/no webhook URL/);
    sandbox.ctx.app.webhookUrl = receiver.url;
    const same = await callAdmin(sandbox, 'POST', '/scenarios/foreign-channel', {
      body: { immediate: true, broadcaster_user_id: FOREIGN_CHANNEL_USER_ID },
    });
    expect(same.status).toBe(400);
    expect(same.json.error).toMatch(/^broadcaster_user_id: /);
    expect(await subscriptionsOf(FOREIGN_CLIENT_ID)).toEqual([]);
  });
});
