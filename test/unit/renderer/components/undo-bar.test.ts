import '@testing-library/svelte/vitest';
import { render, screen } from '@testing-library/svelte';
import { describe, expect, it } from 'vitest';
import UndoBar, { UNDO_WINDOW_MS } from '../../../../renderer/src/components/UndoBar.svelte';
import type { ModStatus } from '../../../../renderer/src/lib/state/moderation.svelte';
import { manualClock, settle } from '../fake-api';

function setup(status?: ModStatus) {
  const clock = manualClock();
  let dismissed = 0;
  render(UndoBar, {
    props: {
      target: { userId: 9, username: 'glitchgoblin' },
      status,
      onUndo: () => {},
      onDismiss: () => void dismissed++,
      clock,
    },
  });
  return { clock, dismissed: () => dismissed };
}

describe('the ban’s Undo bar', () => {
  it('goes by itself once its undo window has passed, on the app’s clock', async () => {
    const { clock, dismissed } = setup();
    await settle();
    expect(screen.getByText('glitchgoblin was banned.')).toBeTruthy();
    clock.advance(UNDO_WINDOW_MS - 1);
    expect(dismissed()).toBe(0);
    clock.advance(1);
    expect(dismissed()).toBe(1);
  });

  it('stays while the unban is on its way or has failed, so its outcome is seen', async () => {
    for (const state of ['pending', 'failed'] as const) {
      const { clock, dismissed } = setup({ state, text: state === 'failed' ? 'Kick refused the unban' : 'Unbanning…' });
      await settle();
      clock.advance(UNDO_WINDOW_MS * 4);
      expect(dismissed()).toBe(0);
    }
  });
});
