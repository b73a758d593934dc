/**
 * The Kick sandbox: id.kick.com, api.kick.com and webhook delivery simulated on 127.0.0.1. Greenroom embeds
 * it when no Kick credentials are configured; `npm run sandbox` runs it standalone for any Kick client.
 */
import { createPrivateKey, createPublicKey, generateKeyPair, generateKeyPairSync } from 'node:crypto';
import { readFile, writeFile } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { AdjustableClock, type Clock, systemClock } from '../electron/core/clock';
import { Listeners } from '../shared/listeners';
import { checkAdminRequest, createAdminToken } from './admin/admin-guard';
import { describeSandbox } from './admin/describe';
import { type AdminControl, registerAdminRoutes } from './admin/routes';
import { registerAdsRoutes } from './api/ads';
import { registerAssetRoutes } from './api/assets';
import { registerCategoryRoutes } from './api/categories';
import { registerChannelRoutes } from './api/channels';
import { registerChatRoutes } from './api/chat';
import { registerEventSubscriptionRoutes, SUBSCRIPTIONS_PATH } from './api/event-subscriptions';
import { registerKicksRoutes } from './api/kicks';
import { registerLivestreamRoutes } from './api/livestreams';
import { registerModerationRoutes } from './api/moderation';
import { registerPublicKeyRoutes } from './api/public-key';
import { apiError } from './api/respond';
import { registerRewardRoutes } from './api/rewards';
import { registerUserRoutes } from './api/users';
import type { SandboxContext, SandboxKeys } from './context';
import { Router } from './http/router';
import { changedTheWorld, type RunningServer, serve } from './http/serve';
import type { SandboxRequest, SandboxResponse } from './http/types';
import { createIngestPublisher, pointStreamsAtIngest } from './ingest/ingest-channels';
import { type LiveSocket, startLiveSocket } from './live-socket';
import type { LiveSocketLimits } from './live-socket/limits';
import { type IngestLimits, type RtmpIngest, startRtmpIngest } from './ingest/rtmp-ingest';
import { REVOKE_PATH } from './oauth/revoke';
import { registerLegacyIntrospectRoute, registerOAuthRoutes } from './oauth/routes';
import { TOKEN_PATH } from './oauth/token-endpoint';
import { clearWorld, restoreWorld, type SavedWorld } from './persist';
import { SandboxState, type TokenLifetimes } from './state';
import { DeliveryEngine, type DeliveryOptions } from './webhooks/delivery';
import { createWorld } from './world';

export interface SandboxOptions {
  /** API port (0 picks a free one). */
  port?: number;
  /** Auth port; defaults to 0 (free) when `port` is 0, else `port + 1`. */
  authPort?: number;
  /** Admin port; defaults to 0 (free) when `port` is 0, else `port + 2`. */
  adminPort?: number;
  /** RTMP ingest port; defaults to 0 (free) when `port` is 0, else `port + 3`. */
  rtmpPort?: number;
  /** Web host port (discovery, channel lookup); defaults to 0 (free) when `port` is 0, else `port + 4`. */
  webPort?: number;
  /** Live socket port (Pusher and Centrifugo); defaults to 0 (free) when `port` is 0, else `port + 5`. */
  socketPort?: number;
  /** Tighter (or looser) bounds for the live socket (tests); the defaults otherwise. */
  liveSocketLimits?: Partial<LiveSocketLimits>;
  /** Tighter (or looser) bounds for the RTMP ingest (tests); the defaults otherwise. */
  ingestLimits?: Partial<IngestLimits>;
  host?: string;
  /** Base clock; the sandbox wraps it in an AdjustableClock so time can be advanced. */
  clock?: Clock;
  clientId?: string;
  clientSecret?: string;
  redirectUris?: string[];
  webhookUrl?: string | null;
  /** Approve authorize requests at once as this user (tests, tools); null shows the consent page. */
  autoApproveUserId?: number | null;
  tokenLifetimes?: Partial<TokenLifetimes>;
  delivery?: Partial<DeliveryOptions>;
  /** The admin API's bearer token; a fresh random one when absent. */
  adminToken?: string;
  /** Reuse a key (tests that need a fixed key); a fresh RSA-2048 pair otherwise. */
  keys?: SandboxKeys;
  /** A world saved earlier (persist.ts) to start from instead of the seeded one; nothing is read from disk. */
  savedWorld?: SavedWorld;
  log?: (line: string) => void;
}

export interface Sandbox {
  ctx: SandboxContext;
  delivery: DeliveryEngine;
  /** Background jobs (rate-spaced triggers, scenarios such as simulated activity). */
  admin: AdminControl;
  urls: SandboxContext['urls'];
  /** The RTMP ingest encoders publish to ([docs](../docs/sandbox.md#kicks-ingest-in-the-sandbox)). */
  ingest: RtmpIngest;
  /** Kick's live socket and its web host ([docs](../docs/sandbox.md#kicks-live-socket-in-the-sandbox)). */
  live: LiveSocket;
  /** The JSON object `npm run sandbox` prints first: everything a Kick client needs to point at it. */
  describe(): SandboxDescription;
  /**
   * Called after anything may have changed the world: a request other than a read or a chat line was
   * answered with success (2xx, and not one that changes nothing, such as an introspection), or an event
   * other than a chat line was announced. Coalescing is the listener's business (the
   * saved world is written at most once a second).
   */
  onChange(listener: () => void): () => void;
  /**
   * How to save at once a change that must outlive a crash: a token issued, refreshed or revoked, an app
   * registered or changed, an event subscription created or deleted. The answer that reports it waits for
   * `save` ([docs](../docs/sandbox.md#what-the-saved-world-keeps)); everything else stays with `onChange`.
   */
  keepLastingChangesWith(save: () => Promise<void>): void;
  /** Back to the seeded world: every record, token and subscription goes; the app keeps its identity. */
  reset(): void;
  close(): Promise<void>;
}

export interface SandboxDescription {
  authUrl: string;
  apiUrl: string;
  adminUrl: string;
  /** The RTMP server URL an encoder publishes to (with the channel's stream key). */
  rtmpUrl: string;
  /** Kick's live socket (`GREENROOM_KICK_SOCKET_URL`): Pusher at `/app/<key>`, Centrifugo at `/connection/websocket`. */
  socketUrl: string;
  /** Kick's web host (`GREENROOM_KICK_WEB_URL`): provider discovery and the channel lookup. */
  webUrl: string;
  /** The streamer's channel id and chatroom id on the live socket (each differs from the user id). */
  channelId: number;
  chatroomId: number;
  /** What the admin API wants in `Authorization: Bearer …`. */
  adminToken: string;
  clientId: string;
  clientSecret: string;
  broadcasterUserId: number;
  redirectUris: string[];
  publicKey: string;
}

export function createSigningKeys(): SandboxKeys {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048, publicExponent: 0x10001 });
  return { privateKey, publicKeyPem: publicKey.export({ type: 'spki', format: 'pem' }).toString() };
}

/**
 * The signing key kept in `file` (PKCS#8 PEM, mode 0600), made on first use. RSA-2048 generation takes a
 * quarter to a whole second, so the embedded sandbox keeps its key across restarts (and keeps a stable
 * public key with it); generation runs off the main thread.
 */
export async function loadOrCreateSigningKeys(file: string): Promise<SandboxKeys> {
  try {
    const privateKey = createPrivateKey(await readFile(file, 'utf8'));
    return { privateKey, publicKeyPem: createPublicKey(privateKey).export({ type: 'spki', format: 'pem' }).toString() };
  } catch {
    const keys = await new Promise<SandboxKeys>((resolve, reject) => {
      generateKeyPair('rsa', { modulusLength: 2048, publicExponent: 0x10001 }, (error, publicKey, privateKey) => {
        if (error) {
          reject(error);
        } else {
          resolve({ privateKey, publicKeyPem: publicKey.export({ type: 'spki', format: 'pem' }).toString() });
        }
      });
    });
    // Keeping it is an optimisation only: a data dir that cannot be written just means a new key next time.
    await writeFile(file, keys.privateKey.export({ type: 'pkcs8', format: 'pem' }), { mode: 0o600 }).catch(
      () => undefined,
    );
    return keys;
  }
}

export async function createSandbox(options: SandboxOptions = {}): Promise<Sandbox> {
  const clock = new AdjustableClock(options.clock ?? systemClock);
  const state = new SandboxState(clock, {
    accessSeconds: options.tokenLifetimes?.accessSeconds ?? 3600,
    codeSeconds: options.tokenLifetimes?.codeSeconds ?? 600,
  });
  const log = options.log ?? (() => undefined);
  const host = options.host ?? '127.0.0.1';
  const adminToken = options.adminToken ?? createAdminToken();
  const basePort = options.port ?? 0;
  const nextPort = (explicit: number | undefined, offset: number): number =>
    explicit ?? (basePort === 0 ? 0 : basePort + offset);

  const apiRouter = new Router();
  const authRouter = new Router();
  const adminRouter = new Router();
  const onError = (error: unknown): void =>
    log(`sandbox: handler error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
  let saveLasting: (() => Promise<void>) | null = null;
  // A change the client would be lost without after a crash is on disk before the client hears of it;
  // chat and events stay with the coalesced save, so a storm of them writes once a second at most.
  const keepLasting =
    (lasting: (path: string) => boolean) =>
    async (req: SandboxRequest, response: SandboxResponse): Promise<void> => {
      const succeeded = response.status >= 200 && response.status < 300 && response.changesNothing !== true;
      if (saveLasting && succeeded && req.method !== 'GET' && req.method !== 'HEAD' && lasting(req.path)) {
        await saveLasting().catch((error: unknown) => log(`sandbox: could not save at once: ${String(error)}`));
      }
    };

  // Servers start first so the world can use the API's real URL for its pictures.
  const api = await serve({
    router: apiRouter,
    host,
    port: basePort,
    onError,
    beforeAnswer: keepLasting((path) => path === SUBSCRIPTIONS_PATH),
    fallback: {
      notFound: () => apiError(404, 'route not found'),
      methodNotAllowed: () => apiError(405),
      serverError: () => apiError(500),
      tooLarge: () => apiError(413),
    },
  });
  const servers: RunningServer[] = [api];
  let ingest: RtmpIngest | null = null;
  let live: LiveSocket | null = null;
  try {
    const oauthError = (status: number, error: string) => () => ({ status, body: { error } });
    const auth = await serve({
      router: authRouter,
      host,
      port: nextPort(options.authPort, 1),
      onError,
      beforeAnswer: keepLasting((path) => path === TOKEN_PATH || path === REVOKE_PATH),
      fallback: {
        notFound: oauthError(404, 'Not found'),
        methodNotAllowed: oauthError(405, 'Method not allowed'),
        serverError: oauthError(500, 'Internal server error'),
        tooLarge: oauthError(413, 'Request entity too large'),
      },
    });
    servers.push(auth);
    const adminServer = await serve({
      router: adminRouter,
      host,
      port: nextPort(options.adminPort, 2),
      guard: (req, port) => checkAdminRequest(req, { token: adminToken, host, port }),
      onError,
      beforeAnswer: keepLasting((path) => path === '/apps' || path.startsWith('/apps/')),
      fallback: {
        notFound: oauthError(404, 'unknown admin route'),
        methodNotAllowed: oauthError(405, 'method not allowed'),
        serverError: oauthError(500, 'internal error'),
        tooLarge: oauthError(413, 'request too large'),
      },
    });
    servers.push(adminServer);
    // The channel's stream key decides a publish; `publish` reads the state the world is about to fill.
    ingest = await startRtmpIngest({
      host,
      port: nextPort(options.rtmpPort, 3),
      limits: options.ingestLimits,
      publish: createIngestPublisher(state),
      log,
    });
    const rtmp = ingest;
    live = await startLiveSocket({
      state,
      host,
      webPort: nextPort(options.webPort, 4),
      socketPort: nextPort(options.socketPort, 5),
      limits: options.liveSocketLimits,
      log,
    });
    const liveSocket = live;

    const app = createWorld(state, {
      clientId: options.clientId,
      clientSecret: options.clientSecret,
      redirectUris: options.redirectUris,
      webhookUrl: options.webhookUrl,
      assetBaseUrl: api.url,
    });
    if (options.savedWorld) {
      restoreWorld(state, options.savedWorld, api.url, app);
    }
    // A saved world remembers an earlier run's port: every start points the stream URLs at this one.
    pointStreamsAtIngest(state, rtmp.url);
    const changes = new Listeners<[]>((error) => log(`sandbox: a change listener failed: ${String(error)}`));
    const changed = (): void => changes.emit();
    // Every change to the world comes from a request that is not a read, or from a background job that
    // announces an event; a read (GET, HEAD) changes nothing worth keeping, and neither does a chat line
    // (a saved world has no chat), so a chat storm does not rewrite the file every second. Only a write
    // that was answered with success counts: a refused one (401, 400, 404…) changed nothing, so anyone
    // who can reach a port cannot make the app rewrite its file.
    for (const running of servers) {
      running.server.on('request', (req: IncomingMessage, res: ServerResponse) => {
        const path = (req.url ?? '').split('?')[0]!;
        if (req.method !== 'GET' && req.method !== 'HEAD' && !path.endsWith('/chat')) {
          res.once('finish', () => {
            if (changedTheWorld(res)) {
              changed();
            }
          });
        }
      });
    }
    state.onEvent((event) => {
      if (event.type !== 'chat.message.sent') {
        changed();
      }
    });
    const ctx: SandboxContext = {
      state,
      clock,
      keys: options.keys ?? createSigningKeys(),
      app,
      autoApproveUserId: options.autoApproveUserId === undefined ? null : options.autoApproveUserId,
      urls: {
        api: api.url,
        auth: auth.url,
        admin: adminServer.url,
        rtmp: rtmp.url,
        socket: liveSocket.socketUrl,
        web: liveSocket.webUrl,
      },
      adminToken,
      live: liveSocket.hub,
      liveFrames: liveSocket.frames,
      log,
    };
    const delivery = new DeliveryEngine(ctx, options.delivery);

    registerOAuthRoutes(authRouter, ctx);
    registerLegacyIntrospectRoute(apiRouter, ctx);
    registerUserRoutes(apiRouter, ctx);
    registerChannelRoutes(apiRouter, ctx);
    registerLivestreamRoutes(apiRouter, ctx);
    registerCategoryRoutes(apiRouter, ctx);
    registerChatRoutes(apiRouter, ctx);
    registerModerationRoutes(apiRouter, ctx);
    registerRewardRoutes(apiRouter, ctx);
    registerKicksRoutes(apiRouter, ctx);
    registerAdsRoutes(apiRouter, ctx);
    registerEventSubscriptionRoutes(apiRouter, ctx);
    registerPublicKeyRoutes(apiRouter, ctx);
    registerAssetRoutes(apiRouter, ctx);
    const admin = registerAdminRoutes(adminRouter, ctx, delivery);
    delivery.start();

    return {
      ctx,
      delivery,
      admin,
      urls: ctx.urls,
      ingest: rtmp,
      live: liveSocket,
      describe: () => describeSandbox(ctx),
      onChange: (listener) => changes.add(listener),
      keepLastingChangesWith: (save) => {
        saveLasting = save;
      },
      reset: () => {
        // Publishes end first (their channels go offline), so none outlives the world it went live in.
        rtmp.closeAll();
        clearWorld(state);
        const fresh = createWorld(state, {
          clientId: app.clientId,
          clientSecret: app.clientSecret,
          redirectUris: app.redirectUris,
          webhookUrl: app.webhookUrl,
          assetBaseUrl: api.url,
        });
        // The routes and the embedding hold this object: it stays, with the fresh world's app id.
        app.appId = fresh.appId;
        state.apps.set(app.clientId, app);
        pointStreamsAtIngest(state, rtmp.url);
        // The live socket's settings go back too; open sockets stay open (a client would only reconnect).
        state.webhookQueueDelayMs = 0;
        liveSocket.hub.resetSettings();
        changed();
      },
      close: async () => {
        // Encoders are cut off first: their channels go offline while the world can still be saved.
        await rtmp.close();
        admin.stopJobs();
        await liveSocket.close();
        await delivery.stop();
        await Promise.all(servers.map((s) => s.close()));
      },
    };
  } catch (error) {
    await Promise.all([...servers.map((s) => s.close()), ingest?.close(), live?.close()]);
    throw error;
  }
}
