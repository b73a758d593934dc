/** The unit tests' fake WebhookPort against the contract the real port passes. */
import type { KickEvent } from '../../../../electron/webhooks/events/types';
import { describeWebhookPortContract } from '../../../helpers/webhook-port-contract';
import { createFakeWebhookPort, type FakeWebhookPort } from './fake-webhook-port';

let n = 0;

describeWebhookPortContract('the unit fake', () =>
  Promise.resolve({
    create: (dataDir) => createFakeWebhookPort(dataDir),
    deliverChat(port, content) {
      const user = {
        is_anonymous: false,
        user_id: 5,
        username: 'lunarfox',
        is_verified: null,
        profile_picture: null,
        channel_slug: null,
      };
      const event: KickEvent = {
        kind: 'known',
        type: 'chat.message.sent',
        version: 1,
        messageId: `fake-${++n}`,
        subscriptionId: 's',
        timestamp: '2026-03-01T12:00:00Z',
        receivedAtMs: 0,
        payload: { message_id: `m${n}`, broadcaster: user, sender: user, content, emotes: null },
      };
      (port as FakeWebhookPort).publish(event);
      return Promise.resolve();
    },
  }),
);
