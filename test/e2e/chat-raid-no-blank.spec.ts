/**
 * "A raid never blanks the chat": in Debian's Chromium, in a 340 px dock, chat at about 400 lines a second never
 * paints the log with rows missing at its top. The log renders the rows of its new bottom as soon as lines are
 * added (it renders only rows in view); if it scrolled there only in the next frame, the frame in between would
 * show its top empty, for as many rows as the flush added
 * ([decisions](../../docs/decisions.md#chat-rows-are-added-at-most-30-times-a-second)). Measured after layout and
 * before paint, by a ResizeObserver on the log's spacers.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { triggerEvent } from '../../sandbox/triggers';
import { type E2E, startE2E } from './harness';
import { signIn } from './sign-in';

const WAIT = { timeout: 15_000 };

/**
 * Per frame that moved a spacer: how many px at the top of the log's viewport show no row. A string, because it
 * runs in the page (this project's tests are typed for Node, not the DOM).
 */
const EMPTY_TOP_PROBE = `
  (() => {
    const log = document.querySelector('[role="log"][aria-label="Chat messages"]');
    const [top, bottom] = log.querySelectorAll(':scope > .spacer');
    let frame = 0;
    const count = () => { frame++; requestAnimationFrame(count); };
    requestAnimationFrame(count);
    const byFrame = new Map();
    new ResizeObserver(() => {
      byFrame.set(frame, Math.max(0, Math.min(log.clientHeight, top.offsetHeight - log.scrollTop)));
    }).observe(top);
    window.__emptyTop = () => [...byFrame.values()];
  })();
`;

function line(e2e: E2E, content: string): string {
  const [fired] = triggerEvent(e2e.sandbox.ctx, 'chat.message.sent', { rng: () => 0.5, overrides: { content } });
  return (fired!.payload as { message_id: string }).message_id;
}

describe('a raid in a dock', () => {
  let e2e: E2E;
  beforeAll(async () => {
    e2e = await startE2E({ viewport: { width: 340, height: 640 } });
    await signIn(e2e);
    // Away from the log: hovering it pauses it.
    await e2e.page.mouse.move(1, 1);
  });
  afterAll(() => e2e.close());

  it('never paints the log with rows missing at its top', async () => {
    const { page } = e2e;
    await expect
      .poll(() => [...e2e.sandbox.ctx.state.subscriptions.values()].map((s) => s.event), WAIT)
      .toContain('chat.message.sent');
    // Enough lines before the raid that the log is full and its top spacer in use.
    let last = '';
    for (let i = 0; i < 60; i++) {
      last = line(e2e, `before the raid ${i}`);
    }
    await page.locator(`article[data-message-id="${last}"]`).waitFor(WAIT);
    await page.evaluate(EMPTY_TOP_PROBE);
    // About 400 lines a second for 3 s.
    const startedAt = Date.now();
    for (let n = 0; Date.now() - startedAt < 3000;) {
      for (let i = 0; i < 4; i++) {
        last = line(e2e, `raid line ${n++}`);
      }
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    await page.locator(`article[data-message-id="${last}"]`).waitFor(WAIT);
    const emptyTop = await page.evaluate<number[]>('window.__emptyTop()');
    // Rows were added in many frames, so the check saw the raid.
    expect(emptyTop.length).toBeGreaterThan(20);
    const empty = emptyTop.filter((px) => px > 0);
    expect(empty, `${empty.length} of ${emptyTop.length} frames painted the log's top empty (px)`).toEqual([]);
  }, 60_000);
});
