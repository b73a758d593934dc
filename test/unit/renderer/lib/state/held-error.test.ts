import { describe, expect, it } from 'vitest';
import { endedBy, HeldError } from '../../../../../renderer/src/lib/state/held-error.svelte';

describe('HeldError', () => {
  it('clears a link failure on the reconnect and a sign-in failure on the sign-in, never the other way', () => {
    const held = new HeldError();
    held.fail({ code: 'AppUnreachable', message: 'the connection to Greenroom was lost' });
    expect(held.clearIfEnded('sign-in')).toBe(false);
    expect(held.shown?.text).toMatch(/Greenroom is not running/);
    expect(held.clearIfEnded('reconnect')).toBe(true);
    expect(held.shown).toBeNull();

    held.fail({ code: 'NotSignedIn', message: 'not signed in' });
    expect(held.clearIfEnded('reconnect')).toBe(false);
    expect(held.clearIfEnded('sign-in')).toBe(true);
  });

  it('keeps what is still true after either: Kick’s refusal, a field the panel marked', () => {
    const held = new HeldError();
    held.fail({ code: 'Forbidden', message: 'updateChannel: 403' });
    expect(held.clearIfEnded('reconnect') || held.clearIfEnded('sign-in')).toBe(false);
    held.show({ text: 'Title: required.', detail: null });
    expect(held.clearIfEnded('reconnect') || held.clearIfEnded('sign-in')).toBe(false);
    expect(held.shown?.text).toBe('Title: required.');
  });

  it('names the codes each cause ends', () => {
    expect((['AppUnreachable', 'AppTimeout'] as const).every((c) => endedBy(c, 'reconnect'))).toBe(true);
    expect((['NotSignedIn', 'Unauthorized', 'RefreshRejected'] as const).every((c) => endedBy(c, 'sign-in'))).toBe(
      true,
    );
    expect(endedBy('Timeout', 'reconnect')).toBe(false);
    expect(endedBy('MissingScope', 'sign-in')).toBe(false);
    expect(endedBy(null, 'reconnect')).toBe(false);
  });
});
