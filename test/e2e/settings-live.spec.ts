/**
 * "Settings apply live", through the panel server in Debian's Chromium: Greenroom starts on its
 * embedded sandbox; the streamer enters the credentials of a standalone sandbox (standing in for their Kick
 * app, its addresses given as Kick's by GREENROOM_KICK_API_URL / _AUTH_URL) and a redirect URL registered
 * there, and Greenroom switches to Kick in place: same process, same page, no reload. Signing in there works
 * with the new redirect URL, and a change to the events to receive changes the subscriptions on "Kick",
 * again without a restart and without losing the sign-in.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../sandbox/index';
import { STREAMER_USER_ID } from '../../sandbox/world';
import { freePort } from '../helpers/free-port';
import { startSandbox } from '../helpers/sandbox';
import { type E2E, startE2E } from './harness';
import { openSection } from '../helpers/panel-tabs';

const WAIT = { timeout: 20_000 };

/** The event types the standalone sandbox holds subscriptions for, for our app and the streamer. */
function subscribedTypes(kick: Sandbox): string[] {
  const { clientId } = kick.describe();
  return [...kick.ctx.state.subscriptions.values()]
    .filter((s) => s.clientId === clientId && s.broadcasterUserId === STREAMER_USER_ID)
    .map((s) => s.event)
    .sort();
}

async function openSettings(page: Page): Promise<void> {
  await openSection(page, 'Settings');
  await page.getByRole('heading', { name: 'Settings' }).waitFor();
}

describe('settings apply live, against a standalone sandbox as Kick', () => {
  let kick: Sandbox;
  let e2e: E2E;
  let redirectUri: string;

  beforeAll(async () => {
    redirectUri = `http://127.0.0.1:${await freePort()}/callback`;
    // Approves sign-in at once as the streamer, as a person clicking Approve would.
    kick = await startSandbox({ redirectUris: [redirectUri] });
    e2e = await startE2E({
      env: {
        GREENROOM_KICK_API_URL: kick.urls.api,
        GREENROOM_KICK_AUTH_URL: kick.urls.auth,
        GREENROOM_KICK_SOCKET_URL: kick.urls.socket,
        GREENROOM_KICK_WEB_URL: kick.urls.web,
      },
    });
  });
  afterAll(async () => {
    await e2e?.close();
    await kick?.close();
  });

  it('switches from the embedded sandbox to Kick when credentials are saved, in the same page and process', async () => {
    const { page } = e2e;
    await page
      .getByText(/Running on the Greenroom sandbox/)
      .first()
      .waitFor(WAIT);
    // Anything set on the page survives only if the page is never reloaded.
    await page.evaluate(() => Object.assign(globalThis, { greenroomE2eMarker: 'same page' }));
    const firstApp = e2e.launched.app;
    await openSettings(page);

    // Events and redirect URL first: on the sandbox too they apply at once.
    const events = page.getByRole('group', { name: 'Events to receive' });
    for (const label of [
      'New followers',
      'New subscriptions',
      'Subscription renewals',
      'Gifted subscriptions',
      'KICKs gifted',
      'Channel point redemptions',
      'Going live and offline',
      'Title and category changes',
      'Bans and timeouts',
    ]) {
      await events.getByLabel(label).uncheck();
    }
    await page.getByRole('button', { name: 'Save events' }).click();
    await page.getByText('Greenroom now runs with the events to receive.').waitFor(WAIT);
    await page.getByLabel('Redirect URL').fill(redirectUri);
    await page.getByRole('button', { name: 'Save connection' }).click();
    await page.getByText('Greenroom now runs with the redirect URL.').waitFor(WAIT);

    const { clientId, clientSecret } = kick.describe();
    await page.getByLabel('Client ID').fill(clientId);
    await page.getByLabel(/Client secret/).fill(clientSecret);
    await page.getByRole('button', { name: 'Save credentials' }).click();
    await page
      .getByText("Greenroom now runs with your Kick app's credentials. Sign in with Kick to continue.")
      .waitFor(WAIT);

    await expect.poll(() => page.getByText(/Running on the Greenroom sandbox/).count(), WAIT).toBe(0);
    expect(await page.evaluate(() => (globalThis as { greenroomE2eMarker?: string }).greenroomE2eMarker)).toBe(
      'same page',
    );
    expect(e2e.launched.app).not.toBe(firstApp);
    expect(e2e.launched.app.config).toMatchObject({
      mode: 'kick',
      kick: { apiUrl: kick.urls.api, authUrl: kick.urls.auth, clientId },
      redirectUri,
      wantedEvents: ['chat.message.sent'],
    });
    expect(firstApp.sandbox).toBeDefined();
    await e2e.screenshot('settings-live-kick-mode');
  });

  it('signs in on Kick with the new redirect URL, and subscribes to the chosen events there', async () => {
    const { page } = e2e;
    // The "system browser" tab: the standalone sandbox approves at once and sends it to our redirect URL.
    const opening = e2e.context.waitForEvent('page', WAIT);
    await page.getByRole('button', { name: 'Sign in with Kick' }).first().click();
    const browser = await opening;
    await browser.getByText('You can close this tab').waitFor(WAIT);
    await page.bringToFront();
    await page
      .getByText('Waiting for you to approve Greenroom in your browser…')
      .waitFor({ state: 'detached', ...WAIT });
    await page.getByRole('region', { name: 'Sign in' }).waitFor({ state: 'detached', ...WAIT });
    // Only the standalone sandbox could have signed us in, and it accepts only the redirect URL saved above.
    expect(e2e.launched.app.snapshot().account).toMatchObject({ signedIn: true, userId: STREAMER_USER_ID });
    await expect.poll(() => subscribedTypes(kick), WAIT).toEqual(['chat.message.sent']);
  });

  it('changes the subscriptions on Kick when the events to receive change, keeping the sign-in', async () => {
    const { page } = e2e;
    const before = e2e.launched.app;
    const events = page.getByRole('group', { name: 'Events to receive' });
    await events.getByLabel('KICKs gifted').check();
    await events.getByLabel('New followers').check();
    await page.getByRole('button', { name: 'Save events' }).click();
    await page.getByText('Greenroom now runs with the events to receive.').waitFor(WAIT);

    await expect
      .poll(() => subscribedTypes(kick), WAIT)
      .toEqual(['channel.followed', 'chat.message.sent', 'kicks.gifted']);
    expect(e2e.launched.app).not.toBe(before);
    expect(e2e.launched.app.snapshot().account).toMatchObject({ signedIn: true, userId: STREAMER_USER_ID });
    expect(await page.getByRole('region', { name: 'Sign in' }).count()).toBe(0);
    expect(await page.evaluate(() => (globalThis as { greenroomE2eMarker?: string }).greenroomE2eMarker)).toBe(
      'same page',
    );
  });
});

describe('first run', () => {
  let e2e: E2E;

  beforeAll(async () => {
    e2e = await startE2E({ firstRun: true, viewport: { width: 1100, height: 820 } });
  });
  afterAll(() => e2e?.close());

  it('opens the setup guide by itself at the sandbox tour, which waits for nothing', async () => {
    const { page } = e2e;
    const guide = page.getByRole('dialog', { name: 'Set up Greenroom' });
    await guide.waitFor(WAIT);
    // On the sandbox the guide starts at what works now, not at creating a Kick app.
    await guide.getByRole('heading', { name: 'What the sandbox is' }).waitFor(WAIT);
    expect(await guide.getByText(/Waiting for the tunnel/).count()).toBe(0);
    expect(await guide.getByRole('button', { name: 'Next' }).isEnabled()).toBe(true);
    await e2e.screenshot('first-run-sandbox-tour');

    // Sign-in comes next, and its Next says why it waits.
    await guide.getByRole('button', { name: 'Next' }).click();
    await guide.getByRole('button', { name: 'Check sign-in' }).last().waitFor(WAIT);
    expect(await guide.getByRole('button', { name: 'Next' }).isDisabled()).toBe(true);

    // Closed once, it stays closed: the choice is saved, so a reload does not bring it back.
    await guide.getByRole('button', { name: 'Close setup' }).click();
    await guide.waitFor({ state: 'detached', ...WAIT });
    await expect.poll(() => e2e.launched.app.snapshot().settings.setupGuideDone, WAIT).toBe(true);
    await page.reload();
    await page.getByRole('tablist', { name: 'Sections' }).waitFor(WAIT);
    expect(await page.getByRole('dialog', { name: 'Set up Greenroom' }).count()).toBe(0);
  });
});
