import { describe, expect, it } from 'vitest';
import { alertCommandOf } from '../../../../electron/overlays/alert-chat-commands';
import type { ChatMessageView } from '../../../../shared/views';

const message = (content: string, badges: string[]): Pick<ChatMessageView, 'content' | 'sender'> => ({
  content,
  sender: {
    userId: 7,
    username: 'someone',
    color: null,
    badges: badges.map((type) => ({ type, text: type })),
    isVerified: false,
  },
});

describe('the alert queue’s chat commands', () => {
  it('are taken from a moderator or the streamer, in any case, with words after them', () => {
    expect(alertCommandOf(message('!skipalert', ['moderator']))).toBe('skip');
    expect(alertCommandOf(message('  !PauseAlerts now please', ['broadcaster']))).toBe('pause');
    expect(alertCommandOf(message('!resumealerts', ['moderator', 'subscriber']))).toBe('resume');
    expect(alertCommandOf(message('!clearalerts', ['broadcaster']))).toBe('clear');
  });

  it('are ignored from anyone else, VIPs and subscribers included', () => {
    for (const badges of [[], ['vip'], ['subscriber'], ['founder'], ['bot']]) {
      expect(alertCommandOf(message('!skipalert', badges))).toBeNull();
    }
  });

  it('must be the first word, exactly', () => {
    for (const content of ['please !skipalert', '!skipalerts', '!skip', '!skipalert!', '!__proto__', '!constructor']) {
      expect(alertCommandOf(message(content, ['moderator'])), content).toBeNull();
    }
  });
});
