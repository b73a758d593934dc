/**
 * "Chat follows live until a person says otherwise": in Debian's Chromium, in a 340 px dock,
 * chat with emotes whose images arrive late, and rows that grow right after they render (what a late image
 * or a re-measured row does to the log), keeps following the newest line. Only a person pauses it: a
 * scrolling key on the focused log does.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { triggerEvent } from '../../sandbox/triggers';
import { type E2E, startE2E } from './harness';
import { signIn } from './sign-in';

const WAIT = { timeout: 15_000 };
const VIEWER = 100100;

function chat(e2e: E2E, content: string): string {
  const [fired] = triggerEvent(e2e.sandbox.ctx, 'chat.message.sent', {
    rng: () => 0.5,
    overrides: { content, 'sender.user_id': VIEWER },
  });
  return (fired!.payload as { message_id: string }).message_id;
}

/**
 * Every chat row that renders grows by 40 px a moment later, as if an image or font arrived late. A
 * string, because it runs in the page (this project's tests are typed for Node, not the DOM).
 */
const GROW_ROWS_LATE = `
  const log = document.querySelector('[role="log"][aria-label="Chat messages"]');
  new MutationObserver((records) => {
    for (const record of records) {
      for (const node of record.addedNodes) {
        const article = node instanceof HTMLElement ? node.querySelector('article[data-message-id]') : null;
        if (article) {
          setTimeout(() => {
            const late = document.createElement('div');
            late.style.height = '40px';
            late.dataset.late = '';
            article.append(late);
          }, 0);
        }
      }
    }
  }).observe(log, { childList: true, subtree: true });
`;

async function growRowsLate(page: Page): Promise<void> {
  await page.evaluate(GROW_ROWS_LATE);
}

describe('chat follows live in a dock while rows grow after they render', () => {
  let e2e: E2E;
  let page: Page;

  beforeAll(async () => {
    e2e = await startE2E({ viewport: { width: 340, height: 640 } });
    page = e2e.page;
    // Emote images take a while, as a CDN does under load.
    await page.route('**/emotes/**', async (route) => {
      await new Promise((resolve) => setTimeout(resolve, 300 + Math.random() * 500));
      await route.continue();
    });
    await signIn(e2e);
    await page.mouse.move(1, 1); // hovering the log is a person pausing it; stay off it
  });
  afterAll(() => e2e.close());

  it('never pauses by itself, and shows the newest line', async () => {
    await expect
      .poll(() => [...e2e.sandbox.ctx.state.subscriptions.values()].map((s) => s.event), WAIT)
      .toContain('chat.message.sent');
    await growRowsLate(page);
    const log = page.getByRole('log', { name: 'Chat messages' });
    let last = '';
    for (let i = 0; i < 80; i++) {
      last = chat(e2e, `line ${i} [emote:37226:KEKW] gg [emote:39261:catJAM] ${'wide '.repeat(i % 7)}`);
      if (i % 4 === 3) {
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    }
    const newest = log.locator(`article[data-message-id="${last}"]`);
    await newest.waitFor(WAIT);
    // Let the late images and grown rows land, then look.
    await expect.poll(() => log.locator('[data-late]').count(), WAIT).toBeGreaterThan(5);
    await page.waitForTimeout(1200);
    expect(await page.getByText('Following new messages').isVisible()).toBe(true);
    expect(await page.getByRole('button', { name: /new message|Chat paused/ }).count()).toBe(0);
    const gap = await log.evaluate((el) => el.scrollHeight - el.scrollTop - el.clientHeight);
    expect(gap).toBeLessThan(24);
    await e2e.screenshot('chat-follow-live-dock');
  });

  it('a pointer the log moves under does not pause it; a pointer moved over it does', async () => {
    const log = page.getByRole('log', { name: 'Chat messages' });
    // Something 200 px tall above the log (as the sign-in strip is), clicked, so the pointer rests on it; then
    // it goes away and the log moves up under the resting pointer.
    await page.evaluate(`(() => {
      const wrap = document.querySelector('[role="log"][aria-label="Chat messages"]').parentElement;
      const strip = document.createElement('button');
      strip.id = 'strip-above';
      strip.style.cssText = 'display:block;width:100%;height:200px;flex:0 0 200px';
      wrap.before(strip);
    })()`);
    await page.locator('#strip-above').click();
    await page.evaluate(`document.getElementById('strip-above').remove()`);
    const line = chat(e2e, 'after the strip went away');
    await log.locator(`article[data-message-id="${line}"]`).waitFor(WAIT);
    expect(await page.getByText('Following new messages').isVisible()).toBe(true);
    expect(await page.getByRole('button', { name: /new message|Chat paused/ }).count()).toBe(0);
    // A person moving the pointer over the log pauses it, and moving off resumes it.
    const box = (await log.boundingBox())!;
    await page.mouse.move(box.x + box.width / 2 + 5, box.y + box.height / 2);
    await page.getByRole('button', { name: /Chat paused|new message/ }).waitFor(WAIT);
    await page.mouse.move(1, 1);
    await page.getByText('Following new messages').waitFor(WAIT);
  });

  it('a person paging up pauses it, and new lines wait behind the jump button', async () => {
    const log = page.getByRole('log', { name: 'Chat messages' });
    await log.focus();
    await page.keyboard.press('PageUp');
    await page.getByRole('button', { name: /Chat paused|new message/ }).waitFor(WAIT);
    chat(e2e, 'while the streamer reads back');
    await page.getByRole('button', { name: /1 new message/ }).waitFor(WAIT);
  });
});
