/**
 * Which provider and key to connect with, asked of Kick at every connect ([reference §10.1](../../docs/kick-wire-reference.md#101-connection),
 * discovery): the app key has changed once and Kick's web client can be offered Centrifugo instead, so nothing
 * is hard-coded but the fallback. Pusher is preferred when offered (it is what carried all chat when last
 * checked); Centrifugo when it is all that is offered; the known Pusher key when discovery fails.
 */
import { z } from 'zod';
import { fetchJson, type WebFetch } from './web-fetch';
import type { LiveTarget } from './live-transport';

/** Kick's current Pusher app key and cluster ([reference §10.1](../../docs/kick-wire-reference.md#101-connection)). */
export const FALLBACK_PUSHER = { key: '32cbd69e4b950bf97679', cluster: 'us2' } as const;

export interface DiscoveryInput {
  fetch: WebFetch;
  /** Kick's web host (`https://web.kick.com`, or the stand-in's). */
  webUrl: string;
  /** The Pusher host to use with a discovered or fallback key. */
  pusherUrl: string;
  channelId: number;
  /** This install's client id, sent with discovery and the token request. */
  clientId: string;
  log: (line: string) => void;
}

const connections = z.looseObject({
  data: z.looseObject({
    connections: z.array(z.looseObject({ provider: z.string(), credentials: z.looseObject({}).catch({}).optional() })),
  }),
});
const pusherCredentials = z.looseObject({
  app_key: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/),
  cluster: z.string().max(32).optional(),
});
/** Longest connection token taken: Kick's is a JWT of well under a kilobyte. */
export const TOKEN_MAX_CHARS = 8192;
const token = z.string().min(1).max(TOKEN_MAX_CHARS);
const centrifugoCredentials = z.looseObject({
  url: z
    .string()
    .max(2048)
    .regex(/^wss?:\/\//),
  token: token.optional(),
});
const tokenAnswer = z.looseObject({ data: z.looseObject({ token }) });

/**
 * Whether the socket at `url` may be used when discovery came from `webUrl`: a plain `ws://` line would carry
 * Kick's token and every frame unencrypted, so it is taken only from a plain-HTTP stand-in (the sandbox) or on
 * this machine.
 */
function secureEnough(url: string, webUrl: string): boolean {
  if (url.startsWith('wss://') || webUrl.startsWith('http://')) {
    return true;
  }
  try {
    const host = new URL(url).hostname;
    return host === '127.0.0.1' || host === 'localhost' || host === '[::1]';
  } catch {
    return false;
  }
}

export async function discoverTarget(input: DiscoveryInput): Promise<LiveTarget> {
  const fallback: LiveTarget = {
    provider: 'pusher',
    socketUrl: input.pusherUrl,
    key: FALLBACK_PUSHER.key,
    cluster: FALLBACK_PUSHER.cluster,
    keySource: 'fallback',
  };
  const answer = await fetchJson(
    input.fetch,
    `${input.webUrl}/api/v1/realtime/channels/${input.channelId}/chat/connection`,
    {
      method: 'POST',
      body: {
        client: { id: input.clientId, type: 'web' },
        capabilities: { accepted_providers: [{ provider: 'pusher' }, { provider: 'centrifugo' }] },
      },
    },
  );
  if (!answer.ok) {
    input.log(`live socket: provider discovery failed (${answer.error}); using the known Pusher key`);
    return fallback;
  }
  const parsed = connections.safeParse(answer.value.body);
  if (!parsed.success) {
    input.log('live socket: provider discovery answered without data.connections; using the known Pusher key');
    return fallback;
  }
  const offered = parsed.data.data.connections;
  for (const entry of offered) {
    const pusher = entry.provider === 'pusher' ? pusherCredentials.safeParse(entry.credentials) : null;
    if (pusher?.success) {
      return {
        provider: 'pusher',
        socketUrl: input.pusherUrl,
        key: pusher.data.app_key,
        cluster: pusher.data.cluster ?? FALLBACK_PUSHER.cluster,
        keySource: 'discovered',
      };
    }
  }
  for (const entry of offered) {
    const centrifugo = entry.provider === 'centrifugo' ? centrifugoCredentials.safeParse(entry.credentials) : null;
    if (centrifugo?.success && !secureEnough(centrifugo.data.url, input.webUrl)) {
      input.log('live socket: discovery offered Centrifugo over an unencrypted ws:// line; not used');
    } else if (centrifugo?.success) {
      const token = centrifugo.data.token ?? (await connectionToken(input));
      if (token !== null) {
        return { provider: 'centrifugo', url: centrifugo.data.url, token, keySource: 'discovered' };
      }
    }
  }
  input.log(
    `live socket: discovery offered no provider Greenroom can use (${offered.map((e) => e.provider).join(', ') || 'none'}); using the known Pusher key`,
  );
  return fallback;
}

/** A Centrifugo connection token from Kick's web host, or null. */
async function connectionToken(input: DiscoveryInput): Promise<string | null> {
  const answer = await fetchJson(input.fetch, `${input.webUrl}/api/v1/realtime/auth/connection`, {
    method: 'POST',
    body: { client_id: input.clientId },
  });
  const parsed = answer.ok ? tokenAnswer.safeParse(answer.value.body) : null;
  if (!parsed?.success) {
    input.log(`live socket: no Centrifugo token (${answer.ok ? 'no data.token in the answer' : answer.error})`);
    return null;
  }
  return parsed.data.data.token;
}
