/**
 * The web host beside the socket ([reference §10.1](../../docs/kick-wire-reference.md#101-connection) and [§10.5](../../docs/kick-wire-reference.md#105-channel-and-chatroom-ids);
 * [sandbox facts](../../docs/sandbox.md#discovery-and-channel-lookup)): provider
 * discovery (`POST /api/v1/realtime/channels/<channel_id>/chat/connection`, answering `data.connections[]`),
 * the Centrifugo token (`POST /api/v1/realtime/auth/connection`) and the channel lookup
 * (`GET /api/v2/channels/<slug>`), which Cloudflare sometimes answers instead of Kick.
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { toRfc3339 } from '../../electron/core/clock';
import { fail, ok } from '../api/respond';
import { readJsonObject } from '../api/params';
import type { Router } from '../http/router';
import type { SandboxRequest, SandboxResponse } from '../http/types';
import type { SandboxState } from '../state';
import { broadcasterOfChannelId, channelIdOf, chatroomIdOf, PUSHER_APP_KEY, PUSHER_CLUSTER } from './ids';
import { LIVE_PROVIDERS, type LiveHub, type LiveProvider } from './live-hub';

/** How long a Centrifugo connection token is good for. */
export const CONNECTION_TOKEN_TTL_MS = 60 * 60_000;
const CLIENT_ID_MAX = 128;

export interface WebRoutesContext {
  state: SandboxState;
  hub: LiveHub;
  /** The socket's base URL (`ws://…`), read when a discovery answers. */
  socketUrl: () => string;
  tokens: ConnectionTokens;
}

/** Connection tokens: `<client id>.<expiry ms>.<HMAC>`, so nothing is kept per token. */
export class ConnectionTokens {
  readonly #secret = randomBytes(32);
  constructor(private readonly now: () => number) {}

  mint(clientId: string): string {
    const body = `${Buffer.from(clientId, 'utf8').toString('base64url')}.${this.now() + CONNECTION_TOKEN_TTL_MS}`;
    return `${body}.${this.#sign(body)}`;
  }

  valid(token: string): boolean {
    const parts = token.split('.');
    if (parts.length !== 3 || token.length > 512) {
      return false;
    }
    const body = `${parts[0]}.${parts[1]}`;
    const expected = Buffer.from(this.#sign(body));
    const given = Buffer.from(parts[2]!);
    return given.length === expected.length && timingSafeEqual(given, expected) && Number(parts[1]) > this.now();
  }

  #sign(body: string): string {
    return createHmac('sha256', this.#secret).update(body).digest('base64url');
  }
}

/** The providers a discovery body accepts; all when it names none. Bad shapes fail naming the field. */
function acceptedProviders(body: Record<string, unknown>): LiveProvider[] {
  const client = body.client as { id?: unknown } | undefined;
  if (client !== undefined && (typeof client !== 'object' || client === null)) {
    fail(400, 'client: expected an object');
  }
  if (client?.id !== undefined && (typeof client.id !== 'string' || client.id.length > CLIENT_ID_MAX)) {
    fail(400, `client.id: expected a string of at most ${CLIENT_ID_MAX} characters`);
  }
  const list = (body.capabilities as { accepted_providers?: unknown } | undefined)?.accepted_providers;
  if (list === undefined) {
    return [...LIVE_PROVIDERS];
  }
  if (!Array.isArray(list) || list.length > 8) {
    fail(400, 'capabilities.accepted_providers: expected a list of at most 8 entries');
  }
  return list
    .map((entry) => (entry as { provider?: unknown } | null)?.provider)
    .filter((name): name is LiveProvider => LIVE_PROVIDERS.includes(name as LiveProvider));
}

function discovery(ctx: WebRoutesContext, req: SandboxRequest, channelId: number | null): SandboxResponse {
  if (channelId !== null) {
    const broadcaster = broadcasterOfChannelId(channelId);
    if (broadcaster === null || !ctx.state.channels.has(broadcaster)) {
      fail(404, 'channel not found');
    }
  }
  const accepted = acceptedProviders(readJsonObject(req, true));
  const connections = ctx.hub.providers
    .filter((provider) => accepted.includes(provider))
    .map((provider) =>
      provider === 'pusher'
        ? { provider, credentials: { app_key: PUSHER_APP_KEY, cluster: PUSHER_CLUSTER } }
        : { provider, credentials: { url: `${ctx.socketUrl()}/connection/websocket` } },
    );
  return { ...ok({ connections }), changesNothing: true };
}

function channelLookup(ctx: WebRoutesContext, req: SandboxRequest): SandboxResponse {
  if (ctx.hub.lookup === 'cloudflare') {
    return {
      status: 403,
      headers: { 'content-type': 'text/html; charset=UTF-8', 'cf-mitigated': 'challenge' },
      body: '<!DOCTYPE html><html><head><title>Just a moment...</title></head><body>Checking your browser</body></html>',
    };
  }
  const channel = ctx.state.channelBySlug(req.params.slug ?? '');
  const user = channel ? ctx.state.user(channel.broadcasterUserId) : undefined;
  if (!channel || !user) {
    return { status: 404, body: { message: 'Channel not found' } };
  }
  const b = channel.broadcasterUserId;
  return {
    status: 200,
    changesNothing: true,
    body: {
      id: channelIdOf(b),
      user_id: b,
      slug: channel.slug,
      is_banned: false,
      chatroom: { id: chatroomIdOf(b), channel_id: channelIdOf(b), chatable_type: 'App\\Models\\Channel' },
      user: { id: b, username: user.username },
      livestream:
        channel.isLive && channel.startedAtMs !== null
          ? {
              id: Math.floor(channel.startedAtMs / 1000),
              session_title: channel.streamTitle,
              is_live: true,
              created_at: toRfc3339(channel.startedAtMs),
            }
          : null,
    },
  };
}

/** Registers the web host's routes. */
export function registerWebRoutes(router: Router, ctx: WebRoutesContext): void {
  router.post('/api/v1/realtime/channels/:channel_id/chat/connection', (req) => {
    const raw = req.params.channel_id ?? '';
    if (!/^\d{1,15}$/.test(raw)) {
      fail(400, 'channel_id: must be an integer');
    }
    return discovery(ctx, req, Number(raw));
  });
  router.post('/api/v1/realtime/connection', (req) => discovery(ctx, req, null));
  router.post('/api/v1/realtime/auth/connection', (req) => {
    const body = readJsonObject(req, true);
    const clientId = body.client_id ?? '';
    if (typeof clientId !== 'string' || clientId.length > CLIENT_ID_MAX) {
      fail(400, `client_id: expected a string of at most ${CLIENT_ID_MAX} characters`);
    }
    return { ...ok({ token: ctx.tokens.mint(clientId) }), changesNothing: true };
  });
  router.get('/api/v2/channels/:slug', (req) => channelLookup(ctx, req));
}
