import { describe, expect, it } from 'vitest';
import {
  COMMAND_VIEWER_FIELDS,
  leadingCommandChar,
  leadingViewerField,
  streamerMaySend,
} from '../../../shared/chat-bot-reply-safety';

describe('leadingViewerField', () => {
  it.each([
    ['{args}', 'args'],
    ['  {user} asked', 'user'],
    ['{category}{args}', 'args'],
    ['!{args}', 'args'],
    ['{title} — {args}', 'args'],
    // Invisible "letters" (Hangul fillers, category Lo) and other characters no one sees are not words.
    ['\u3164{args}', 'args'],
    ['\u115f\u1160{user} asked', 'user'],
    ['\uffa0\u034f\ufe0f{args}', 'args'],
    ['\u0001\u00ad{args}', 'args'],
  ])('names the field a viewer would start %j with', (template, field) => {
    expect(leadingViewerField(template, COMMAND_VIEWER_FIELDS)).toBe(field);
  });

  it.each(['You said: {args}', '!so {args}', '{title} is on, {user}', 'Uptime: {uptime}', '2 {args}'])(
    'finds the streamer’s own words first in %j',
    (template) => {
      expect(leadingViewerField(template, COMMAND_VIEWER_FIELDS)).toBeNull();
    },
  );
});

describe('leadingCommandChar', () => {
  it.each([
    ['!ban x', '!'],
    ['/ban x', '/'],
    ['  \u200b\u2060!ban', '!'],
    ['\u3000／ban', '／'],
    ['\u3164!ban', '!'],
    ['\uffa0\u115f\u1160/ban', '/'],
    ['\u0001\u034f!ban', '!'],
    ['hi !ban', null],
    ['', null],
  ])('reads %j as starting with %j', (text, char) => {
    expect(leadingCommandChar(text)).toBe(char);
  });
});

describe('streamerMaySend', () => {
  it('refuses a template a viewer starts, whatever it rendered to', () => {
    expect(streamerMaySend('{args}', 'hello', COMMAND_VIEWER_FIELDS)).toMatchObject({ ok: false });
  });

  it('refuses a `!` or `/` the streamer did not write, even from another field', () => {
    expect(streamerMaySend('{title} is on, {user}', '!ban victim is on, ana', COMMAND_VIEWER_FIELDS)).toEqual({
      ok: false,
      error: 'it would start with !, which you did not write',
    });
  });

  it('refuses a `!` behind an invisible letter that another field brought', () => {
    expect(streamerMaySend('{title} is on, {user}', '\u3164!ban victim is on, ana', COMMAND_VIEWER_FIELDS)).toEqual({
      ok: false,
      error: 'it would start with !, which you did not write',
    });
  });

  it('lets through the streamer’s own command and plain words', () => {
    expect(streamerMaySend('!so {args}', '!so @ana', COMMAND_VIEWER_FIELDS)).toEqual({ ok: true, value: null });
    expect(streamerMaySend('You said: {args}', 'You said: !ban x', COMMAND_VIEWER_FIELDS)).toEqual({
      ok: true,
      value: null,
    });
    expect(streamerMaySend('\u3164Hi {args}', '\u3164Hi !ban x', COMMAND_VIEWER_FIELDS)).toEqual({
      ok: true,
      value: null,
    });
  });
});
