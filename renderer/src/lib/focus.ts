/**
 * Focus handling for the card and the ban confirm: focus moves into the overlay when it opens and goes
 * back where it came from when it closes (or to the chat log, when that element left the page, as a
 * message's action buttons do once the row loses focus).
 */
import type { Attachment } from 'svelte/attachments';

/** Focuses `target` (or the element itself) on mount and restores the previous focus on unmount. */
export function focusInside(selector?: string): Attachment<HTMLElement> {
  return (el) => {
    const previous = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    const inner = selector ? el.querySelector<HTMLElement>(selector) : null;
    (inner ?? el).focus();
    return () => {
      if (previous?.isConnected) {
        previous.focus();
      } else {
        document.querySelector<HTMLElement>('[role="log"]')?.focus();
      }
    };
  };
}
