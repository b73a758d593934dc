/**
 * Signs the streamer in the way a person would: "Sign in with Kick" in the panel opens the sandbox's consent
 * page in a new tab (the "system browser"), the user is picked and Approve clicked; that tab then says it can
 * be closed, and the panel shows the signed-in state.
 */
import type { Page } from 'playwright-core';
import type { E2E } from './harness';

/** The sandbox streamer's user id, the consent page's first (default) choice. */
export const STREAMER_USER_ID = 100001;

export async function signIn(e2e: E2E, options: { userId?: number } = {}): Promise<Page> {
  const { page } = e2e;
  // Works in beforeAll too (no expect.poll there): the consent tab is the next page the context opens.
  const opening = e2e.context.waitForEvent('page', { timeout: 15_000 });
  await page.getByRole('button', { name: 'Sign in with Kick' }).click();
  const consent = await opening;
  await consent.getByRole('button', { name: 'Approve' }).waitFor();
  await consent.getByLabel('Sign in as').selectOption(String(options.userId ?? STREAMER_USER_ID));
  await consent.getByRole('button', { name: 'Approve' }).click();
  await consent.getByText('You can close this tab').waitFor({ timeout: 15_000 });
  // Signed in: the banner offering to sign in is gone.
  await page.getByRole('region', { name: 'Sign in' }).waitFor({ state: 'detached', timeout: 15_000 });
  // Back to the panel, as a person would: a background tab gets throttled animation frames, which would
  // slow every Playwright action on the panel (each waits for the element to be stable across frames).
  await page.bringToFront();
  return consent;
}
