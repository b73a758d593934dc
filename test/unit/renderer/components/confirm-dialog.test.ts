import '@testing-library/svelte/vitest';
import { fireEvent, render, screen } from '@testing-library/svelte';
import { describe, expect, it, vi } from 'vitest';
import ConfirmDialog from '../../../../renderer/src/components/ConfirmDialog.svelte';

function setup() {
  const onConfirm = vi.fn();
  const onCancel = vi.fn();
  const opener = document.createElement('button');
  document.body.append(opener);
  opener.focus();
  const r = render(ConfirmDialog, {
    props: { title: 'Accept 12 redemptions of Hydrate?', confirmLabel: 'Accept 12 redemptions', onConfirm, onCancel },
  });
  return { onConfirm, onCancel, opener, ...r };
}

describe('ConfirmDialog', () => {
  it('is a modal alert dialog named by its question, with focus on Cancel', () => {
    setup();
    const dialog = screen.getByRole('alertdialog', { name: 'Accept 12 redemptions of Hydrate?' });
    expect(dialog.getAttribute('aria-modal')).toBe('true');
    expect(document.activeElement?.textContent).toBe('Cancel');
  });

  it('keeps Tab inside: past the last button to the first, Shift-Tab back', async () => {
    setup();
    const dialog = screen.getByRole('alertdialog');
    await fireEvent.keyDown(dialog, { key: 'Tab' });
    expect(document.activeElement?.textContent).toBe('Accept 12 redemptions');
    await fireEvent.keyDown(dialog, { key: 'Tab', shiftKey: true });
    expect(document.activeElement?.textContent).toBe('Cancel');
  });

  it('cancels on Escape and on a click beside it, confirms only on its button; focus goes back after', async () => {
    const { onConfirm, onCancel, opener, unmount } = setup();
    await fireEvent.keyDown(screen.getByRole('alertdialog'), { key: 'Escape' });
    await fireEvent.click(document.querySelector('.backdrop')!);
    expect(onCancel).toHaveBeenCalledTimes(2);
    expect(onConfirm).not.toHaveBeenCalled();
    await fireEvent.click(screen.getByRole('button', { name: 'Accept 12 redemptions' }));
    expect(onConfirm).toHaveBeenCalledTimes(1);
    unmount();
    expect(document.activeElement).toBe(opener);
  });
});
