/**
 * The live socket's switchboard ([sandbox facts](../../docs/sandbox.md#kicks-live-socket-in-the-sandbox)): the open
 * sessions of both providers, which channels each holds, what discovery offers, and the world's frames
 * sent to every session subscribed to their channel. One per sandbox.
 */
import { channelName } from './ids';
import { type ChatroomModes, defaultChatroomModes, type LiveFrame } from './frames';

export type LiveProvider = 'pusher' | 'centrifugo';
export const LIVE_PROVIDERS: readonly LiveProvider[] = ['pusher', 'centrifugo'];

/** How a drop ends a socket: a close code, or `cut` (the TCP connection ends with no close frame). */
export type DropCode = 4200 | 4201 | 4001 | 'cut';
export const DROP_CODES: readonly DropCode[] = [4200, 4201, 4001, 'cut'];

/** One open socket, whichever provider it speaks. */
export interface LiveSession {
  readonly provider: LiveProvider;
  readonly channels: ReadonlySet<string>;
  /** Sends one event frame on a channel this session holds. */
  send(channel: string, frame: LiveFrame): void;
  /** Ends the socket as a drop of Kick's would. */
  drop(code: DropCode): void;
}

/** What the channel lookup on the web host answers: Kick's JSON, or the Cloudflare challenge page. */
export type LookupMode = 'answers' | 'cloudflare';

/**
 * Whether the socket takes new connections: `refused` plays a socket host that cannot be reached for a while
 * (an upgrade is answered HTTP 503), so a test can hold a client's reconnect and send chat during the gap.
 */
export type ConnectionsMode = 'accepted' | 'refused';
export const CONNECTIONS_MODES: readonly ConnectionsMode[] = ['accepted', 'refused'];

/** What the socket and its web host count, for the admin view and tests. */
export interface LiveCounters {
  connections: number;
  refusedConnections: number;
  malformedFrames: number;
  unknownEvents: number;
  framesSent: number;
}

export class LiveHub {
  readonly sessions = new Set<LiveSession>();
  /** The providers discovery offers, in order; `['centrifugo']` plays "discovery offers only Centrifugo". */
  providers: LiveProvider[] = [...LIVE_PROVIDERS];
  lookup: LookupMode = 'answers';
  connections: ConnectionsMode = 'accepted';
  /** Each channel's chat modes, as ChatroomUpdatedEvent last said them. */
  readonly chatroomModes = new Map<number, ChatroomModes>();
  readonly counters: LiveCounters = {
    connections: 0,
    refusedConnections: 0,
    malformedFrames: 0,
    unknownEvents: 0,
    framesSent: 0,
  };

  /** Sends a frame to every session holding its channel; returns how many got it. */
  publish(frame: LiveFrame): number {
    const name = channelName(frame.room, frame.broadcasterUserId);
    let sent = 0;
    for (const session of this.sessions) {
      if (session.channels.has(name)) {
        session.send(name, frame);
        sent++;
      }
    }
    this.counters.framesSent += sent;
    return sent;
  }

  /** A channel's chat modes (all off until changed). */
  modesOf(broadcasterUserId: number): ChatroomModes {
    let modes = this.chatroomModes.get(broadcasterUserId);
    if (!modes) {
      modes = defaultChatroomModes();
      this.chatroomModes.set(broadcasterUserId, modes);
    }
    return modes;
  }

  /** Back to what a fresh sandbox offers: both providers, the lookup answering, connections taken, every chat mode off. */
  resetSettings(): void {
    this.providers = [...LIVE_PROVIDERS];
    this.lookup = 'answers';
    this.connections = 'accepted';
    this.chatroomModes.clear();
  }

  /** Drops every open session (of one provider when named); returns how many. */
  drop(code: DropCode, provider?: LiveProvider): number {
    let dropped = 0;
    for (const session of [...this.sessions]) {
      if (provider === undefined || session.provider === provider) {
        session.drop(code);
        dropped++;
      }
    }
    return dropped;
  }

  /** What the admin API shows. */
  describe(): Record<string, unknown> {
    return {
      providers: [...this.providers],
      lookup: this.lookup,
      connections: this.connections,
      sessions: [...this.sessions].map((s) => ({ provider: s.provider, channels: [...s.channels] })),
      counters: { ...this.counters },
    };
  }
}

/**
 * A channel name a client may hold: Pusher's allowed characters, at most 164 of them (Pusher's own limit).
 * Private and presence channels need Kick's session auth, which the sandbox does not play.
 */
export function checkChannelName(name: unknown): { ok: true; name: string } | { ok: false; reason: string } {
  if (typeof name !== 'string' || name.length === 0 || name.length > 164 || !/^[A-Za-z0-9_\-=@,.;]+$/.test(name)) {
    return { ok: false, reason: 'channel: must be 1 to 164 of A-Z a-z 0-9 _ - = @ , . ;' };
  }
  if (name.startsWith('private-') || name.startsWith('presence-')) {
    return { ok: false, reason: `channel: ${name.slice(0, 64)} needs a logged-in kick.com session` };
  }
  return { ok: true, name };
}
