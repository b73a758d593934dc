import { describe, expect, it } from 'vitest';
import { blankEmotes, EMOTE_TOKEN, emoteNamesOnly, emotePositions } from '../../../shared/emotes';

describe('the one emote pattern', () => {
  it('lists each emote id with the inclusive offsets of its whole tokens', () => {
    const content = 'hi [emote:37226:KEKW] and [emote:1:a] [emote:37226:KEKW]';
    expect(emotePositions(content)).toEqual([
      {
        emote_id: '37226',
        positions: [
          { s: 3, e: 20 },
          { s: 38, e: 55 },
        ],
      },
      { emote_id: '1', positions: [{ s: 26, e: 36 }] },
    ]);
    expect(emotePositions('no emotes here')).toBeNull();
  });

  it('refuses tokens past its bounds: a 21-digit id, a name of 101 characters, a space in the name', () => {
    const hostile = `[emote:${'9'.repeat(21)}:x] [emote:1:${'n'.repeat(101)}] [emote:1:a b] [emote::x] [emote:1:]`;
    expect(emotePositions(hostile)).toBeNull();
    expect(blankEmotes(hostile)).toBe(hostile);
    expect(emotePositions(`[emote:${'9'.repeat(20)}:${'n'.repeat(100)}]`)).toHaveLength(1);
  });

  it('blanks tokens to spaces of their length and shows them as names', () => {
    const content = 'a[emote:5:Pog]b';
    expect(blankEmotes(content)).toBe(`a${' '.repeat(13)}b`);
    expect(emoteNamesOnly(content)).toBe('aPogb');
    expect(emoteNamesOnly('[emote:5:Pog] [emote:6:Sad]')).toBe('Pog Sad');
  });

  it('keeps no state between calls, though the shared pattern is global', () => {
    const content = '[emote:5:Pog] [emote:6:Sad]';
    expect(content.match(EMOTE_TOKEN)).toHaveLength(2);
    expect(content.match(EMOTE_TOKEN)).toHaveLength(2);
    expect(emotePositions(content)).toHaveLength(2);
    expect(emotePositions(content)).toHaveLength(2);
  });
});
