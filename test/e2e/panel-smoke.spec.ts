/**
 * Issue 5's must-show: through the panel server in Debian's Chromium, with the real services against the
 * embedded sandbox, the panel loads, the streamer signs in on the sandbox's consent page, and a chat message
 * triggered in the sandbox appears.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { triggerEvent } from '../../electron/sandbox/triggers';
import { type E2E, startE2E } from './harness';

describe('the panel in a browser, against the sandbox', () => {
  let e2e: E2E;
  beforeAll(async () => {
    e2e = await startE2E();
  });
  afterAll(() => e2e.close());

  it('loads with the strict CSP and says it runs on the sandbox', async () => {
    const response = await e2e.page.reload();
    expect(response?.headers()['content-security-policy']).toContain("default-src 'none'");
    await expect
      .poll(() =>
        e2e.page
          .getByText(/sandbox/i)
          .first()
          .isVisible(),
      )
      .toBe(true);
    await e2e.screenshot('panel-signed-out');
  });
});
