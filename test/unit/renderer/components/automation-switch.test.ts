import '@testing-library/svelte/vitest';
import { render, screen } from '@testing-library/svelte';
import { describe, expect, it, onTestFinished } from 'vitest';
import AutomationPanel from '../../../../renderer/src/components/AutomationPanel.svelte';
import { AppState } from '../../../../renderer/src/lib/state/app.svelte';
import { createFakeApi, manualClock, manualFrames, settle } from '../fake-api';
import { account, settings, snapshot } from '../fixtures';

/** The Automation tab with the bot on, signed in or not: signed out, main posts nothing automatic. */
async function setup(signedIn: boolean) {
  const fake = createFakeApi();
  const current = settings();
  fake.ok('app:snapshot', snapshot({ settings: current, account: account({ signedIn, userId: signedIn ? 1 : null }) }));
  fake.ok('settings:get', current);
  const app = new AppState(fake.api, { scheduler: manualFrames().scheduler, clock: manualClock() });
  onTestFinished(app.connect());
  await app.start();
  render(AutomationPanel, { props: { app } });
  await settle();
}

describe('the bot switch', () => {
  it('says the bot is idle while signed out, and why', async () => {
    await setup(false);
    const label = screen.getByRole('switch').closest('label')!;
    expect(label.textContent?.trim()).toBe('Bot idle: signed out');
    expect(label.title).toMatch(/nothing is posted until you sign in with Kick/);
  });

  it('says it is on while signed in', async () => {
    await setup(true);
    expect(screen.getByRole('switch').closest('label')!.textContent?.trim()).toBe('Bot on');
  });
});
