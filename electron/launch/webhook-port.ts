/**
 * The app's webhook side for the real entries (desktop and panel-only): the webhook service (receiver,
 * journal, tunnel, reconciler) behind the WebhookPort the composition root expects. In sandbox mode the
 * embedded sandbox's app is pointed at the local receiver, so its signed deliveries take the same path
 * Kick's do; on real Kick the tunnel's public URL is what the streamer pastes into Kick's dashboard.
 */
import type { WebhookPort, WebhookPortDeps } from '../app/webhook-port';
import { createWebhookService, type RestoredWebhookService } from '../webhooks/webhook-service';

/**
 * Builds the webhook port from the app's configuration (a WebhookPortFactory). `debugLog` says whether the
 * logger writes debug lines, so a line per duplicate delivery is built only when someone reads it
 * ([logging](../../docs/logging.md)).
 */
export function createAppWebhookPort(deps: WebhookPortDeps, debugLog: () => boolean = () => false): WebhookPort {
  const { config, kick, sandbox } = deps;
  const service = createWebhookService(
    {
      dataDir: deps.dataDir,
      port: config.webhook.port,
      path: config.webhook.path,
      replayWindowSeconds: config.webhook.replayWindowSeconds,
      tunnel: config.tunnel.setting,
      ...(config.tunnel.host ? { tunnelHost: config.tunnel.host } : {}),
      subdomain: config.tunnel.subdomain ?? '',
      wantedEvents: config.wantedEvents,
      ...(config.webhook.journal ? { journal: config.webhook.journal } : {}),
    },
    { clock: deps.clock, log: deps.log, debugLog, fetchPublicKey: () => kick.client.fetchPublicKey() },
  );
  const manage = (userId: number | null): void => {
    if (userId !== null) {
      service.manageSubscriptions(kick.client, userId);
    }
  };
  let unsubscribe: (() => void) | null = null;
  const start = async (restored: RestoredWebhookService): Promise<void> => {
    await restored.start();
    const receiverUrl = service.receiverUrl();
    if (sandbox && receiverUrl) {
      // As a developer would in Kick's dashboard: the app's one webhook URL is our receiver.
      sandbox.ctx.app.webhookUrl = receiverUrl;
      sandbox.ctx.app.webhooksEnabled = true;
    }
    unsubscribe = deps.onBroadcasterChange(manage);
    manage(deps.broadcasterUserId());
  };
  let starting: Promise<void> | null = null;
  return {
    bus: service.bus,
    async restore() {
      const restored = await service.restore();
      return { events: restored.events, start: () => (starting ??= start(restored)) };
    },
    async stop() {
      unsubscribe?.();
      await service.stop();
    },
    health: () => service.health(),
    onHealthChange: (listener) => service.onHealthChange(listener),
    recordLive: (record, eventKey) => service.recordLive(record, eventKey),
    trail: () => service.trail(),
    journal: service.journal,
  };
}
