/**
 * Chat variables from the stream history through the real app (../../../docs/chat-bot.md#chat-variables-from-the-history):
 * chat lines as signed webhooks to the app's receiver, the bot's answers read from the sandbox's own chat, the
 * welcome back reply saved through `settings:update`. On Node 20 (no `node:sqlite`) the variables say plainly that
 * the follow time is unknown; on Node 24 they come from the store, and a chatter last seen ten days ago (Kick's
 * time on their line) is welcomed back once, the broadcaster never.
 */
import { describe, expect, it } from 'vitest';
import { loadSqlite } from '../../../electron/history/sqlite-driver';
import { triggerEvent } from '../../../sandbox/triggers';
import { viewerIds } from '../../../sandbox/world';
import { FOLLOWAGE_UNAVAILABLE } from '../../../shared/chat-bot';
import type { HistoryStatusView } from '../../../shared/history';
import {
  appPosts,
  BOT_USER_ID,
  command,
  fx,
  invoke,
  mark,
  say,
  settle,
  STREAMER_USER_ID,
  useChatBotApp,
} from './chat-bot-fixtures';

const sqlite = loadSqlite() !== null;
const DAY = 24 * 60 * 60 * 1000;

useChatBotApp([
  command('fa', '{user} {followage}; {streams} streams', { cooldownSec: 0 }),
  command('echo', 'You said: {args} ({followage})', { cooldownSec: 0 }),
]);

/** What the bot posted from `since` on, without the fixtures' markers (the streamer's own lines are not answers). */
const answers = (since: number) =>
  appPosts(since).filter((m) => m.senderUserId === BOT_USER_ID && !m.content.startsWith('marker '));
const nameOf = (userId: number) => fx.sandbox.ctx.state.user(userId)!.username;

/** Resolves once the history's status passes `ok`, hearing each change main pushes. */
async function historyWhen(ok: (status: HistoryStatusView) => boolean): Promise<void> {
  for (;;) {
    const changed = new Promise<void>((resolve) => {
      const off = fx.app.events.on('history:changed', () => (off(), resolve()));
    });
    const status = await invoke('history:status');
    if (status.ok && ok(status.value)) {
      return;
    }
    await changed;
  }
}
const historyReady = () => historyWhen((s) => s.state !== 'starting');

describe('{followage} and {streams} from the app', () => {
  it('answers with what the history knows, or plainly that it is not known here', async () => {
    await historyReady();
    const since = mark();
    say('!fa');
    await settle(since);
    const name = nameOf(fx.viewer);
    if (sqlite) {
      expect(answers(since).map((m) => m.content)).toEqual([
        expect.stringMatching(
          new RegExp(`^${name} no follow seen by Greenroom (since \\d{4}-\\d\\d-\\d\\d|yet); \\d+ streams$`),
        ),
      ]);
    } else {
      expect(answers(since).map((m) => m.content)).toEqual([
        `${name} ${FOLLOWAGE_UNAVAILABLE}; an unknown number of streams`,
      ]);
    }
  });

  it('never fills in a field a viewer typed', async () => {
    const since = mark();
    say('!echo {followage} {streams} {user} {args}');
    await settle(since);
    const [answer] = answers(since).map((m) => m.content);
    expect(answer).toMatch(/^You said: \{followage\} \{streams\} \{user\} \{args\} \((?!\{)/);
  });
});

describe.skipIf(!sqlite)('welcome back, from the history', () => {
  it('welcomes a chatter last seen ten days ago once, and never the broadcaster', async () => {
    await historyReady();
    const chatBot = await invoke('settings:get');
    if (!chatBot.ok) {
      throw new Error('settings:get failed');
    }
    const saved = await invoke('settings:update', {
      chatBot: {
        ...chatBot.value.chatBot,
        welcomeBack: { enabled: true, afterDays: 7, template: 'Welcome back, {user}! {days} days away' },
      },
    });
    expect(saved.ok).toBe(true);
    const returning = viewerIds(fx.sandbox.ctx.state)[2]!;
    triggerEvent(fx.sandbox.ctx, 'chat.message.sent', {
      overrides: {
        content: 'see you next week',
        sender: { user_id: returning },
        // To the whole second, as Kick dates chat.
        created_at: new Date(Math.floor((Date.now() - 10 * DAY) / 1000) * 1000).toISOString(),
      },
    });
    triggerEvent(fx.sandbox.ctx, 'livestream.status.updated', { overrides: { is_live: true } });
    await historyWhen((status) => status.liveStreamId !== null);
    const since = mark();
    say('I am back', returning);
    say('hello again', returning);
    say('hi chat', STREAMER_USER_ID);
    await settle(since);
    expect(answers(since).map((m) => m.content)).toEqual([`Welcome back, ${nameOf(returning)}! 10 days away`]);
  });
});
