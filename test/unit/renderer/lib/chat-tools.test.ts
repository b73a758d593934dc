import { describe, expect, it, vi } from 'vitest';
import { DEFAULT_CHAT_TOOLS_SETTINGS } from '../../../../shared/chat-tools';
import { compileHighlights } from '../../../../renderer/src/lib/highlight';
import { searchChat } from '../../../../renderer/src/lib/chat-search';
import { isEventRow, mixEvents } from '../../../../renderer/src/lib/chat-rows';
import type { FeedItem } from '../../../../shared/views';
import {
  applyMention,
  mentionAt,
  recentNames,
  SentHistory,
  SENT_HISTORY_MAX,
  suggestMentions,
} from '../../../../renderer/src/lib/chat-typing';
import { ChatToolsState, CHIME_GAP_MS } from '../../../../renderer/src/lib/state/chat-tools.svelte';
import { ChatState } from '../../../../renderer/src/lib/state/chat.svelte';
import { createFakeApi, manualClock, manualFrames } from '../fake-api';
import { message } from '../fixtures';

const hl = (term: string, sound = false) => ({ term, colour: '#ff0000', sound });

describe('highlight terms', () => {
  it('match whole words in any case, with * for any letters, first term in order wins', () => {
    const match = compileHighlights([hl('giveaway'), hl('clip*'), hl('café')]);
    expect(match('GIVEAWAY tonight?')?.term).toBe('giveaway');
    expect(match('giveaways')).toBeNull();
    expect(match('nice clipping')?.term).toBe('clip*');
    expect(match('café!')?.term).toBe('café');
    expect(match('cafés')).toBeNull();
    expect(compileHighlights([hl('a.b')])('axb')).toBeNull();
    expect(compileHighlights([])('anything')).toBeNull();
  });
});

describe('ChatToolsState and the ignore list', () => {
  function setup() {
    const clock = manualClock();
    let chimes = 0;
    const tools = new ChatToolsState(() => chimes++, clock);
    const frames = manualFrames();
    const chat = new ChatState(createFakeApi().api, frames.scheduler, tools);
    return { tools, chat, frames, clock, chimes: () => chimes };
  }

  it('drops ignored chatters as they arrive and from the scrollback when the list changes', () => {
    const { tools, chat, frames } = setup();
    chat.receive(message({ username: 'SpamLord', content: 'one' }));
    chat.receive(message({ username: 'friend', content: 'two' }));
    frames.run();
    expect(chat.messages).toHaveLength(2);
    tools.configure({ ...DEFAULT_CHAT_TOOLS_SETTINGS, ignoredUsers: ['spamlord'] });
    chat.refilter();
    expect(chat.messages.map((m) => m.content)).toEqual(['two']);
    chat.receive(message({ username: 'spamlord', content: 'three' }));
    frames.run();
    expect(chat.messages.map((m) => m.content)).toEqual(['two']);
  });

  it('sounds for a live highlight with sound, at most once per gap, never for a deleted message', () => {
    const { tools, chat, clock, chimes } = setup();
    tools.configure({ ...DEFAULT_CHAT_TOOLS_SETTINGS, highlights: [hl('quiet'), hl('loud', true)] });
    chat.receive(message({ content: 'quiet please' }));
    expect(chimes()).toBe(0);
    chat.receive(message({ content: 'LOUD' }));
    chat.receive(message({ content: 'loud again' }));
    expect(chimes()).toBe(1);
    clock.advance(CHIME_GAP_MS);
    chat.receive(message({ content: 'loud', deleted: true }));
    expect(chimes()).toBe(1);
    chat.receive(message({ content: 'loud' }));
    expect(chimes()).toBe(2);
  });

  it('matches a live message against the terms once, for its sound and its row, until the terms change', () => {
    const { tools, chat, frames } = setup();
    tools.configure({ ...DEFAULT_CHAT_TOOLS_SETTINGS, highlights: [hl('first'), hl('second'), hl('giveaway')] });
    const live = message({ content: 'is there a giveaway' });
    const tests = vi.spyOn(RegExp.prototype, 'test');
    try {
      chat.receive(live);
      frames.run();
      const onArrival = tests.mock.calls.length;
      expect(onArrival).toBe(3);
      // The row asks when it is drawn, and again if it is drawn again (scrolled back into view).
      expect(tools.highlightFor(live)?.term).toBe('giveaway');
      expect(tools.highlightFor(live)?.term).toBe('giveaway');
      expect(tests.mock.calls.length).toBe(onArrival);
    } finally {
      tests.mockRestore();
    }
    // New terms: the message is matched against them, not answered from before.
    tools.configure({ ...DEFAULT_CHAT_TOOLS_SETTINGS, highlights: [hl('there')] });
    expect(tools.highlightFor(live)?.term).toBe('there');
    tools.configure({ ...DEFAULT_CHAT_TOOLS_SETTINGS, highlights: [] });
    expect(tools.highlightFor(live)).toBeNull();
    expect(tools.highlightFor({ ...live, deleted: true })).toBeNull();
  });

  it('marks a first message only while the setting is on', () => {
    const { tools } = setup();
    const first = message({ firstMessage: true });
    expect(tools.isFirst(first)).toBe(true);
    expect(tools.isFirst(message())).toBe(false);
    const bot = message({ firstMessage: true });
    bot.sender.badges = [{ type: 'bot', text: 'Bot' }];
    expect(tools.isFirst(bot)).toBe(false);
    tools.configure({ ...DEFAULT_CHAT_TOOLS_SETTINGS, firstMessageHighlight: false });
    expect(tools.isFirst(first)).toBe(false);
  });
});

describe('typing tools', () => {
  it('walks sent messages with ↑ and ↓ and brings the draft back', () => {
    const history = new SentHistory();
    expect(history.older('draft')).toBeNull();
    history.add('first');
    history.add('second');
    history.add('second');
    expect(history.older('my draft')).toBe('second');
    expect(history.older('second')).toBe('first');
    expect(history.older('first')).toBeNull();
    expect(history.newer()).toBe('second');
    expect(history.newer()).toBe('my draft');
    expect(history.newer()).toBeNull();
    for (let i = 0; i < SENT_HISTORY_MAX + 5; i++) {
      history.add(`m${i}`);
    }
    let oldest = '';
    for (let text = history.older(''); text !== null; text = history.older(text)) {
      oldest = text;
    }
    expect(oldest).toBe('m5');
  });

  it('completes the @word at the caret from the most recent chatters', () => {
    const names = recentNames([
      message({ username: 'Alice' }),
      message({ username: 'alfred' }),
      message({ username: 'bob' }),
      message({ username: 'alice' }),
    ]);
    expect(names).toEqual(['alice', 'bob', 'alfred']);
    expect(mentionAt('hi @al', 6)).toEqual({ start: 3, end: 6, prefix: 'al' });
    expect(mentionAt('mail@al', 7)).toBeNull();
    expect(mentionAt('hi @al there', 5)).toEqual({ start: 3, end: 6, prefix: 'a' });
    expect(suggestMentions(names, 'AL')).toEqual(['alice', 'alfred']);
    expect(suggestMentions(names, 'alice')).toEqual([]);
    const query = mentionAt('hi @al there', 6)!;
    expect(applyMention('hi @al there', query, 'alfred')).toEqual({ content: 'hi @alfred there', caret: 11 });
  });

  it('searches the scrollback by words and from:name', () => {
    const list = [
      message({ username: 'alice', content: 'Giveaway when?' }),
      message({ username: 'bob', content: 'giveaway now' }),
      message({ username: 'bob', content: 'hello' }),
    ];
    expect(searchChat(list, 'GIVEAWAY').map((m) => m.sender.username)).toEqual(['alice', 'bob']);
    expect(searchChat(list, 'from:@Bob giveaway')).toHaveLength(1);
    expect(searchChat(list, 'bob')).toHaveLength(2);
    expect(searchChat(list, '  ')).toHaveLength(3);
  });
});

describe('inline event rows', () => {
  const event = (id: string, atMs: number, kind: FeedItem['kind'] = 'follow'): FeedItem => ({
    id,
    kind,
    atMs,
    text: `${id} happened`,
    userId: null,
    username: null,
    eventType: 'channel.followed',
  });

  it('places events among messages by time, from the oldest message on, and only the inline kinds', () => {
    const a = message({ sentAtMs: 1000 });
    const b = message({ sentAtMs: 3000 });
    const rows = mixEvents(
      [a, b],
      [event('late', 4000), event('mid', 2000), event('old', 500), event('tie', 3000), event('ban', 2500, 'ban')],
    );
    expect(rows.map((r) => (isEventRow(r) ? r.event.id : r.messageId))).toEqual([
      a.messageId,
      'mid',
      b.messageId,
      'tie',
      'late',
    ]);
    expect(rows[1]!.messageId).toBe('event:mid');
  });

  it('returns the messages themselves when no event falls in range', () => {
    const list = [message({ sentAtMs: 1000 })];
    expect(mixEvents(list, [event('old', 10)])).toBe(list);
  });
});

describe('un-ignoring a chatter', () => {
  it('brings their kept lines back into the scrollback, in time order', async () => {
    const fake = createFakeApi();
    const frames = manualFrames();
    const tools = new ChatToolsState(() => undefined, manualClock());
    const chat = new ChatState(fake.api, frames.scheduler, tools);
    const a = message({ username: 'calm', sentAtMs: 1000 });
    const b = message({ username: 'loud', sentAtMs: 2000 });
    const c = message({ username: 'calm', sentAtMs: 3000 });
    const d = message({ username: 'loud', sentAtMs: 4000 });
    // b was shown before the chatter was ignored; d arrived while ignored.
    chat.receive(a);
    chat.receive(b);
    frames.run();
    tools.configure({ ...DEFAULT_CHAT_TOOLS_SETTINGS, ignoredUsers: ['loud'] });
    chat.refilter();
    chat.receive(c);
    chat.receive(d);
    frames.run();
    expect(chat.messages.map((m) => m.messageId)).toEqual([a.messageId, c.messageId]);
    tools.configure(DEFAULT_CHAT_TOOLS_SETTINGS);
    fake.ok('chat:history', [a, b, c, d]);
    await chat.loadHistory();
    expect(chat.messages.map((m) => m.messageId)).toEqual([a.messageId, b.messageId, c.messageId, d.messageId]);
  });
});
