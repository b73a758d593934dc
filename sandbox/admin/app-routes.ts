/**
 * Apps, as Kick's developer dashboard (kick.com/settings/developer) manages them: register another app
 * (name, redirect URLs, webhook URL) and get its client id and secret, or edit an app's redirect URLs and
 * webhook settings. Kick has one webhook URL per app, switched on and off with "Enable Webhooks". Each
 * app's event subscriptions can be looked at too (`GET /subscriptions`).
 */
import { randomBytes } from 'node:crypto';
import { toRfc3339 } from '../../electron/core/clock';
import { createUlid } from '../../electron/core/ids';
import { bodyBool, bodyString, bodyStringArray } from '../api/params';
import type { SandboxContext } from '../context';
import type { Router } from '../http/router';
import type { SandboxApp } from '../state';
import { BOT_USER_ID } from '../world';
import { adminFail, adminOk, adminRoute, readAdminBody } from './admin-http';

/** Dashboard limits (Kick's form does not publish them; generous but bounded). */
const APP_NAME_MAX = 100;
const REDIRECT_URIS_MAX = 10;

/** The app as the admin API shows it (the dashboard shows the secret to its owner too). */
export function toAdminApp(app: SandboxApp): Record<string, unknown> {
  return {
    app_id: app.appId,
    client_id: app.clientId,
    client_secret: app.clientSecret,
    name: app.name,
    redirect_uris: [...app.redirectUris],
    webhook_url: app.webhookUrl,
    webhooks_enabled: app.webhooksEnabled,
    bot_user_id: app.botUserId,
  };
}

/** An absolute URL with one of `protocols` and no fragment (OAuth forbids fragments in redirect URIs). */
function checkUrl(field: string, value: string, protocols: readonly string[]): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    adminFail(400, `${field}: must be an absolute URL`);
  }
  if (!protocols.includes(url.protocol)) {
    adminFail(400, `${field}: must use ${protocols.join(' or ')}`);
  }
  if (url.hash) {
    adminFail(400, `${field}: must not contain a fragment`);
  }
  return value;
}

function readRedirectUris(body: Record<string, unknown>, required: boolean): string[] | undefined {
  const uris = bodyStringArray(body, 'redirect_uris', {
    required,
    minItems: 1,
    maxItems: REDIRECT_URIS_MAX,
    unique: true,
  });
  return uris?.map((uri, i) => checkUrl(`redirect_uris[${i}]`, uri, ['http:', 'https:']));
}

/** `webhook_url`: a URL, `null` to clear it, or absent (undefined). */
function readWebhookUrl(body: Record<string, unknown>): string | null | undefined {
  if (body.webhook_url === null) {
    return null;
  }
  const url = bodyString(body, 'webhook_url');
  return url === undefined ? undefined : checkUrl('webhook_url', url, ['http:', 'https:']);
}

/** Registers `GET/POST /apps`, `PATCH /apps/:client_id` and `GET /subscriptions`. */
export function registerAppRoutes(router: Router, ctx: SandboxContext): void {
  const { state } = ctx;

  router.get(
    '/apps',
    adminRoute(() => adminOk({ apps: [...state.apps.values()].map(toAdminApp) })),
  );

  // Every app's event subscriptions, as each developer's dashboard would list its own (`?client_id=` for one).
  router.get(
    '/subscriptions',
    adminRoute((req) => {
      const clientId = req.query.get('client_id');
      const subscriptions = [...state.subscriptions.values()].filter(
        (s) => clientId === null || s.clientId === clientId,
      );
      return adminOk({
        subscriptions: subscriptions.map((s) => ({
          id: s.id,
          client_id: s.clientId,
          broadcaster_user_id: s.broadcasterUserId,
          event: s.event,
          version: s.version,
          created_at: toRfc3339(s.createdAtMs),
        })),
      });
    }),
  );

  router.post(
    '/apps',
    adminRoute((req) => {
      const body = readAdminBody(req);
      const name = bodyString(body, 'name', { required: true, minLength: 1, maxLength: APP_NAME_MAX });
      const redirectUris = readRedirectUris(body, true) ?? [];
      const webhookUrl = readWebhookUrl(body) ?? null;
      const now = state.now();
      const app: SandboxApp = {
        appId: createUlid(now),
        // Kick's client ids are ULID-shaped; secrets are long random hex.
        clientId: createUlid(now),
        clientSecret: randomBytes(32).toString('hex'),
        name,
        redirectUris,
        webhookUrl,
        webhooksEnabled: bodyBool(body, 'webhooks_enabled') ?? webhookUrl !== null,
        botUserId: BOT_USER_ID,
      };
      state.apps.set(app.clientId, app);
      ctx.log(`sandbox: registered app "${name}" (${app.clientId})`);
      return adminOk(toAdminApp(app), 201);
    }),
  );

  router.patch(
    '/apps/:client_id',
    adminRoute((req) => {
      const app = state.appByClientId(req.params.client_id ?? '');
      if (!app) {
        adminFail(404, `client_id: no app ${req.params.client_id}`);
      }
      const body = readAdminBody(req);
      const name = bodyString(body, 'name', { minLength: 1, maxLength: APP_NAME_MAX });
      const redirectUris = readRedirectUris(body, false);
      const webhookUrl = readWebhookUrl(body);
      const enabled = bodyBool(body, 'webhooks_enabled');
      if ([name, redirectUris, webhookUrl, enabled].every((v) => v === undefined)) {
        adminFail(400, 'request body: send at least one of name, redirect_uris, webhook_url, webhooks_enabled');
      }
      if (enabled === true && (webhookUrl === null || (webhookUrl === undefined && app.webhookUrl === null))) {
        adminFail(400, 'webhook_url: required to enable webhooks');
      }
      if (name !== undefined) {
        app.name = name;
      }
      if (redirectUris !== undefined) {
        app.redirectUris = redirectUris;
      }
      if (webhookUrl !== undefined) {
        app.webhookUrl = webhookUrl;
      }
      if (enabled !== undefined) {
        app.webhooksEnabled = enabled;
      }
      return adminOk(toAdminApp(app));
    }),
  );
}
