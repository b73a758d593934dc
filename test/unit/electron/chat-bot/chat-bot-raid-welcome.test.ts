/**
 * The raid welcome (docs/chat-bot.md#the-raid-welcome-names-only-a-kick-account): the raider's name comes
 * from Kick's unsigned live socket and goes into chat, so only a name that can be a Kick account's is welcomed;
 * another is not, is logged once a run, and never joins a combined welcome.
 */
import { describe, expect, it } from 'vitest';
import type { AlertSource } from '../../../../electron/services/alert-source';
import { isKickUsername } from '../../../../shared/kick/username';
import { botSetup } from './chat-bot-fixtures';

function raid(user: string, viewers = 10): AlertSource {
  return {
    id: `raid:${user}`,
    kind: 'raid',
    fields: { user, viewers: String(viewers) },
    amount: viewers,
    receivedAtMs: 0,
    eventAtMs: 0,
  };
}

function setup() {
  const t = botSetup((s) => {
    s.replies.raid = { ...s.replies.raid, enabled: true, combineSec: 5 };
  });
  return { ...t, onRaid: t.bot.onRaid };
}

const HOSTILE = [
  'visit evil.example now',
  'evil.example',
  'https://evil.example/x',
  '!ban streamer',
  '/ban streamer',
  'x'.repeat(26),
  'raider😀',
  'ｆｕｌｌｗｉｄｔｈ',
  'name\u00a0two',
  '<img src=x onerror="alert(1)">',
  '',
];

describe('the raid welcome', () => {
  it('welcomes a raider whose name is a Kick username', () => {
    const { onRaid, sent, timers } = setup();
    onRaid(raid('xqc_Sb_2', 120));
    timers.advance(5_000);
    expect(sent.map((m) => m.content)).toEqual(['Welcome raiders from xqc_Sb_2!']);
  });

  it('does not welcome a name that is no Kick username, and logs the first one only', () => {
    const { onRaid, sent, timers, logs } = setup();
    for (const name of HOSTILE) {
      onRaid(raid(name));
    }
    timers.advance(60_000);
    expect(sent).toEqual([]);
    const said = logs.filter((line) => line.includes('not a Kick username'));
    expect(said).toEqual([
      'chat bot: a raider\'s name is not a Kick username, so the raid was not welcomed: "visit evil.example now" (later ones are not logged)',
    ]);
  });

  it('keeps such a name out of a welcome combined with a real raider', () => {
    const { onRaid, sent, timers } = setup();
    onRaid(raid('good_raider', 5));
    onRaid(raid('visit evil.example now', 7));
    onRaid(raid('other_raider', 3));
    timers.advance(60_000);
    expect(sent.map((m) => m.content)).toEqual(['Welcome raiders from good_raider and other_raider!']);
  });

  it('knows a Kick username: 1 to 25 letters, digits or underscores', () => {
    expect(['a', '_', 'A1_b2', 'x'.repeat(25)].every(isKickUsername)).toBe(true);
    expect(HOSTILE.some(isKickUsername)).toBe(false);
    expect(isKickUsername('@xqc')).toBe(false);
    expect(isKickUsername('xqc\n')).toBe(false);
  });
});
