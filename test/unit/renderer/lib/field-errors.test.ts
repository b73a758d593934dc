import { describe, expect, it } from 'vitest';
import { fieldDetails } from '../../../../shared/field-refusal';
import { checkInvoke } from '../../../../shared/validate-message';
import { FieldErrors, plainReason, saveFailure, saveRefusal } from '../../../../renderer/src/lib/field-errors';

const refused = (fields: { field: string; reason: string }[]) => ({
  code: 'InvalidArgument' as const,
  message: `settings:update: ${fields.map((f) => `${f.field}: ${f.reason}`).join('; ')}`,
  details: fieldDetails(fields),
});

describe('field errors', () => {
  it('finds a refused field by its path or by the row that holds it', () => {
    const fields = new FieldErrors([
      { field: 'chatBot.commands.1.reply', reason: 'Too big: expected string to have <=500 characters' },
    ]);
    expect(fields.at('chatBot.commands.1.reply')).toBe('At most 500 characters.');
    expect(fields.at('chatBot.commands.1')).toBe('At most 500 characters.');
    // A prefix of the index is another row: commands.1 does not hold commands.10.
    expect(fields.at('chatBot.commands.10')).toBeNull();
    expect(new FieldErrors([{ field: 'chatBot.commands.10.name', reason: 'x' }]).at('chatBot.commands.1')).toBeNull();
  });

  it('says at the top what was not saved and what still applies; the field paths only in Details', () => {
    const error = refused([
      {
        field: 'automod.blockedTerms.terms.2.pattern',
        reason: 'the regular expression (a+)+$ is refused: a repeated group …',
      },
    ]);
    const refusal = saveRefusal(error, 'your auto-moderation rules', 'The rules saved before stay in effect.');
    expect(refusal?.summary.text).toBe(
      'Not saved: your auto-moderation rules. One entry was refused; the reason is beside it. The rules saved before stay in effect.',
    );
    expect(refusal?.summary.text).not.toMatch(/settings:update|automod\.|blockedTerms/);
    expect(refusal?.summary.detail).toMatch(/settings:update: automod\.blockedTerms\.terms\.2\.pattern/);
    expect(refusal?.fields.at('automod.blockedTerms.terms.2')).toBe('A repeated group ….');
  });

  it('maps a real contract refusal to the redirect field in plain words', () => {
    const checked = checkInvoke('settings:update', [{ redirectUri: 'http://localhost:99999/cb' }]);
    if (checked.ok) {
      throw new Error('accepted');
    }
    const refusal = saveRefusal(checked.error, 'the redirect URL', '');
    expect(refusal?.fields.at('redirectUri')).toBe('The port must be between 1 and 65535.');
    expect(refusal?.summary.text).not.toMatch(/redirectUri|settings:update|Invalid URL/);
  });

  it('keeps plain words for a failure that names no field', () => {
    const shown = saveFailure(
      { code: 'AppUnreachable', message: 'socket closed' },
      'the chat length',
      'Nothing else changed.',
    );
    expect(shown.text).toBe(
      'Not saved: the chat length. Greenroom is not running — reconnecting. Try again once it is back. Nothing else changed.',
    );
    expect(saveRefusal({ code: 'Internal', message: 'x' }, 'a', 'b')).toBeNull();
  });

  it.each([
    ['Too big: expected string to have <=200 characters', 'At most 200 characters.'],
    ['Too small: expected string to have >=1 characters', 'This cannot be empty.'],
    ['Too small: expected number to be >=30', 'At least 30.'],
    ['Too big: expected array to have <=50 items', 'At most 50 entries.'],
    ['Invalid URL', 'This is not a web address.'],
    ['Invalid option: expected one of "bot"|"user"', 'Choose one of the options offered.'],
    ['Invalid input: expected number, received string', 'This value is not in the right form.'],
    ['must be a Kick username', 'Must be a Kick username.'],
  ])('words zod’s %j plainly', (reason, plain) => {
    expect(plainReason(reason)).toBe(plain);
  });
});
