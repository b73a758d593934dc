/**
 * The chat storm's two paths (bench/chat-storm.ts). `socket` (the default): Kick's live chat connection on, as
 * a streamer runs Greenroom, every message also delivered by its signed webhook; latency is timed from the
 * socket frame leaving the sandbox (`GET /live-socket/frames`). `webhook` (`GREENROOM_BENCH_STORM_PATH=webhook`):
 * the connection off, chat on the webhooks alone, timed from the delivery's handover as before the socket.
 */
import { adminCall, type AdminApi } from './app-process';

export type StormPath = 'socket' | 'webhook';

/** The path the storm takes: `GREENROOM_BENCH_STORM_PATH`, `socket` unless it says `webhook`. */
export function stormPath(value = process.env.GREENROOM_BENCH_STORM_PATH): StormPath {
  if (value === undefined || value === '' || value === 'socket') {
    return 'socket';
  }
  if (value === 'webhook') {
    return 'webhook';
  }
  throw new Error(`GREENROOM_BENCH_STORM_PATH: must be socket or webhook, not ${value.slice(0, 40)}`);
}

const CHAT_FRAME = 'App\\Events\\ChatMessageEvent';

interface AdminFrame {
  event: string;
  channel: string;
  id: string | null;
  sent_at_ms: number;
  sockets: number;
}

/** Resolves once the app's socket holds its chatroom in the sandbox (it connects after sign-in), or throws. */
export async function waitForChatroomSocket(admin: AdminApi, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const live = await adminCall<{ sessions: { channels: string[] }[]; chatroom_id: number }>(
      admin,
      'GET',
      '/live-socket',
    );
    const room = `chatrooms.${live.chatroom_id}.v2`;
    if (live.sessions.some((s) => s.channels.includes(room))) {
      return;
    }
    if (Date.now() > deadline) {
      throw new Error(`the app's live socket did not subscribe to ${room} within ${timeoutMs / 1000} s`);
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** Adds the last `limit` chat frames the sandbox sent to `sentAt` (chat message id → when its frame went out). */
export async function pollChatFrames(admin: AdminApi, limit: number, sentAt: Map<string, number>): Promise<void> {
  const answer = await adminCall<{ frames: AdminFrame[] }>(admin, 'GET', `/live-socket/frames?limit=${limit}`);
  for (const frame of answer.frames) {
    if (frame.event === CHAT_FRAME && frame.id !== null) {
      const known = sentAt.get(frame.id);
      if (known === undefined || frame.sent_at_ms < known) {
        sentAt.set(frame.id, frame.sent_at_ms);
      }
    }
  }
}
