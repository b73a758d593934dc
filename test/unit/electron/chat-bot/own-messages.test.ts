import { describe, expect, it } from 'vitest';
import { OwnMessages } from '../../../../electron/chat-bot/own-messages';
import { chat, STREAMER_ID } from './chat-bot-fixtures';

const BOT_ID = 77;
const bot = (content: string) => chat(content, 'greenroom_bot', [], BOT_ID);
const streamer = (content: string) =>
  chat(content, 'streamer', [{ type: 'broadcaster', text: 'Broadcaster' }], STREAMER_ID);

function setup() {
  const clock = { now: 0 };
  const own = new OwnMessages({ now: () => clock.now, streamerUserId: () => STREAMER_ID, keepMs: 60_000 });
  return { own, clock };
}

describe('the bot’s own messages', () => {
  it('knows an echo by Kick’s message id, and the bot’s account from then on', () => {
    const { own } = setup();
    const echo = bot('!ping pong');
    own.sending({ content: '!ping pong', as: 'bot', manual: false }).sent(echo.messageId);
    expect(own.isOwn(echo)).toBe(true);
    // A redelivery of the same message, and anything else the bot's account says.
    expect(own.isOwn(echo)).toBe(true);
    expect(own.isOwn(bot('!discord'))).toBe(true);
    expect(own.isOwn(chat('!discord', 'viewer'))).toBe(false);
  });

  it('knows an echo that arrives before Kick answered the send, by its text, once', () => {
    const { own } = setup();
    own.sending({ content: '!hello viewer ', as: 'user', manual: false });
    expect(own.isOwn(streamer('!hello viewer'))).toBe(true);
    // One send, one echo: the streamer typing the same words afterwards is the streamer.
    expect(own.isOwn(streamer('!hello viewer'))).toBe(false);
  });

  it('matches a text sent as the streamer only from the streamer’s account', () => {
    const { own } = setup();
    own.sending({ content: '!hello', as: 'user', manual: false });
    expect(own.isOwn(chat('!hello', 'copycat'))).toBe(false);
    expect(own.isOwn(streamer('!hello'))).toBe(true);
  });

  it('matches a text sent as the bot from no account but the bot’s once it is known', () => {
    const { own } = setup();
    own.sending({ content: 'first', as: 'bot', manual: false }).sent('id-1');
    own.isOwn({ ...bot('first'), messageId: 'id-1' });
    own.sending({ content: '!again', as: 'bot', manual: false });
    expect(own.isOwn(chat('!again', 'copycat'))).toBe(false);
    expect(own.isOwn(streamer('!again'))).toBe(false);
    expect(own.isOwn(bot('!again'))).toBe(true);
  });

  it('forgets a text whose send failed, or whose echo never came in time', () => {
    const { own, clock } = setup();
    own.sending({ content: '!a', as: 'user', manual: false }).failed();
    expect(own.isOwn(streamer('!a'))).toBe(false);
    own.sending({ content: '!b', as: 'user', manual: false });
    clock.now += 60_001;
    expect(own.isOwn(streamer('!b'))).toBe(false);
  });

  it('leaves the streamer’s own typed messages theirs', () => {
    const { own } = setup();
    const typed = streamer('!uptime');
    own.sending({ content: '!uptime', as: 'user', manual: true }).sent(typed.messageId);
    expect(own.isOwn(typed)).toBe(false);
  });
});
