/**
 * "The 41 evasions" (and more of each kind), through the real judging path: each line is a chat message
 * the embedded sandbox delivers to the app's webhook receiver, signed, over HTTP; the rules were saved with
 * `settings:update`. Each must be caught by the rule named in its title and reach the panels already
 * removed. Every one of them passed untouched before auto-moderation folded text (docs/automod.md#what-the-rules-read).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { EVASIONS, evasionRules } from './automod-evasions';
import { fx, saveRules, say, useAutomodApp } from './automod-fixtures';

describe('auto-moderation catches lines spelled to dodge it', () => {
  useAutomodApp();

  beforeAll(async () => {
    expect(await saveRules(fx.app, evasionRules())).toMatchObject({ ok: true });
  });

  it('the table holds at least 41 evasions, every one named once', () => {
    expect(EVASIONS.length).toBeGreaterThanOrEqual(41);
    expect(new Set(EVASIONS.map((e) => e.name)).size).toBe(EVASIONS.length);
  });

  it.each(EVASIONS.map((e) => [e.name, e] as const))('%s', async (_name, evasion) => {
    const { message, action } = await say(fx, evasion.content);
    expect(message.deleted).toBe(true);
    expect(action?.auto?.rule).toBe(evasion.rule);
  });

  it('passes the same words spelled plainly when they break no rule, and ordinary chat in other scripts', async () => {
    for (const content of [
      'what a clutch',
      'ну ты даёшь',
      'ありがとう！',
      'café au lait',
      'see you at kick.com/streamer',
      'see you at kick.com♥',
      'lol...ok it works',
      'v1.2 is out, pi is 3.14, rated 8.5/10',
      'office hours today',
    ]) {
      expect((await say(fx, content)).message.deleted).toBe(false);
    }
  });
});
