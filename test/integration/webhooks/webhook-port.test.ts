/**
 * The real WebhookPort (the webhook service: receiver on 127.0.0.1, file journal in the data dir) against
 * the contract its test fakes pass, with deliveries signed as Kick signs them.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { expect } from 'vitest';
import { resolveConfig } from '../../../electron/app/config';
import { openSettings } from '../../../electron/app/settings';
import { systemClock } from '../../../electron/core/clock';
import { createAppWebhookPort } from '../../../electron/app/webhook-port';
import { createMockKick, json } from '../../helpers/kick-mock';
import { describeWebhookPortContract } from '../../helpers/webhook-port-contract';
import { buildDelivery, createTestKey, postDelivery, samplePayloads } from '../../helpers/webhook-signing';
import { saveHeld } from './own-channel-fixtures';

describeWebhookPortContract('the real port', () => {
  const key = createTestKey();
  const chat = samplePayloads()['chat.message.sent'];
  const mock = createMockKick();
  mock.api
    .intercept({ path: '/public/v1/public-key', method: 'GET' })
    .reply(200, { data: { public_key: key.publicKeyPem } }, json)
    .persist();
  return Promise.resolve({
    create(dataDir) {
      // An install that has signed in before: the subscription the deliveries name is its own.
      saveHeld(dataDir);
      const config = resolveConfig({
        env: { GREENROOM_TUNNEL: 'off', GREENROOM_WEBHOOK_PORT: '0' },
        settings: openSettings(dataDir, { randomBytes }).values(),
        storedClientSecret: null,
        dataDir,
      });
      return createAppWebhookPort({
        config,
        clock: systemClock,
        log: () => undefined,
        dataDir,
        kick: mock.kick,
        sandbox: null,
        broadcasterUserId: () => null,
        onBroadcasterChange: () => () => undefined,
        wantedEvents: () => config.wantedEvents,
      });
    },
    async deliverChat(port, content) {
      const url = port.health().receiver.url;
      if (url === null) {
        throw new Error('the receiver is not listening');
      }
      const payload = { ...chat, message_id: randomUUID(), content };
      const answer = await postDelivery(
        url,
        buildDelivery({ type: 'chat.message.sent', payload, privateKey: key.privateKey }),
      );
      expect(answer.status, answer.text).toBe(200);
    },
    close: () => mock.kick.close(),
  });
});
