/** The integration tests' sandbox-fed WebhookPort against the contract the real port passes. */
import { AdjustableClock } from '../../../electron/core/clock';
import type { Sandbox } from '../../../sandbox/index';
import { triggerEvent } from '../../../sandbox/triggers';
import { KICK_EVENT_TYPES } from '../../../shared/kick/scopes';
import { startSandbox } from '../../helpers/sandbox';
import { describeWebhookPortContract } from '../../helpers/webhook-port-contract';
import { createSandboxWebhookPort } from './sandbox-webhook-port';

describeWebhookPortContract('the sandbox-fed port', async () => {
  const sandbox: Sandbox = await startSandbox({ delivery: { tickMs: 0 } });
  return {
    create: (dataDir) =>
      createSandboxWebhookPort({
        // Only what this port reads is real; the rest is never called.
        config: undefined as never,
        kick: undefined as never,
        clock: new AdjustableClock(),
        log: () => undefined,
        dataDir,
        sandbox,
        broadcasterUserId: () => null,
        onBroadcasterChange: () => () => undefined,
        wantedEvents: () => KICK_EVENT_TYPES,
      }),
    deliverChat(_port, content) {
      triggerEvent(sandbox.ctx, 'chat.message.sent', { overrides: { content } });
      return Promise.resolve();
    },
    close: () => sandbox.close(),
  };
});
