/**
 * Kick's live socket as a hostile or broken Kick would play it, in the whole app on the embedded sandbox (real
 * receiver, real journal): raw frames on the same socket the sandbox's world uses. A chat line larger than any
 * webhook the receiver takes is not shown or journaled, and the next line still arrives.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chatroomIdOf } from '../../../sandbox/live-socket/ids';
import { socketTime } from '../../../sandbox/live-socket/frames';
import { FIRST_VIEWER_USER_ID, STREAMER_USER_ID } from '../../../sandbox/world';
import { DEFAULT_MAX_BODY_BYTES } from '../../../electron/webhooks/receive/receiver';
import { type AutomodApp, call } from '../app/automod-fixtures';
import { shown, startLiveApp, withDiscordCommand } from '../app/live-merge-fixtures';

let fx: AutomodApp;
let dir: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'greenroom-attack-app-'));
  withDiscordCommand(dir);
  fx = await startLiveApp(dir, 1);
}, 30_000);

afterAll(async () => {
  await fx?.app.stop();
  rmSync(dir, { recursive: true, force: true });
});

let next = 0;
/** Sends a chat line straight onto the sandbox's socket, as a changed or hostile Kick might; returns its id. */
function chatFrame(content: string): string {
  const id = `00000000-0000-4000-8000-${String(++next).padStart(12, '0')}`;
  fx.app.sandbox!.ctx.state.emitLive({
    broadcasterUserId: STREAMER_USER_ID,
    room: 'chatrooms.v2',
    event: 'App\\Events\\ChatMessageEvent',
    data: {
      id,
      chatroom_id: chatroomIdOf(STREAMER_USER_ID),
      content,
      type: 'message',
      created_at: socketTime(Date.now()),
      sender: { id: FIRST_VIEWER_USER_ID, username: 'viewer_one', slug: 'viewer_one' },
    },
  });
  return id;
}

/** Every journal file's text under the data dir. */
function journalText(): string {
  const root = join(dir, 'journal');
  return readdirSync(root, { recursive: true })
    .map(String)
    .filter((name) => name.endsWith('.jsonl') || name.endsWith('.log'))
    .map((name) => readFileSync(join(root, name), 'utf8'))
    .join('\n');
}

describe('a hostile live socket in the whole app', () => {
  it('shows and journals no chat line larger than any webhook the receiver takes', async () => {
    const hugeId = chatFrame('a'.repeat(DEFAULT_MAX_BODY_BYTES + 1));
    const afterId = chatFrame('after the huge one');
    await shown(fx, afterId);
    expect(fx.chat.map((m) => m.messageId)).not.toContain(hugeId);
    expect((await call(fx.app, 'chat:history')).map((m) => m.messageId)).not.toContain(hugeId);
    expect(journalText()).not.toContain(hugeId);
  });
});
