import '@testing-library/svelte/vitest';
import { cleanup, fireEvent, render, screen, within } from '@testing-library/svelte';
import { ALLOWED } from '../../../../renderer/src/lib/access';
import { describe, expect, it } from 'vitest';
import AdsPanel from '../../../../renderer/src/components/AdsPanel.svelte';
import { AdsState } from '../../../../renderer/src/lib/state/ads.svelte';
import { toastsContext, ToastsState } from '../../../../renderer/src/lib/state/toasts.svelte';
import Toasts from '../../../../renderer/src/components/Toasts.svelte';
import { createFakeApi, manualClock, settle } from '../fake-api';
import { adStatus } from '../fixtures';

const NOW = 1_700_000_000_000;

/** A break Kick's status lists, started `agoMs` before the test clock's start. */
function breakStarted(agoMs: number, seconds: number) {
  return {
    id: 'ad-running',
    status: 'inserted',
    break_duration_seconds: seconds,
    created_at: new Date(NOW - agoMs).toISOString(),
    source: 'public_api',
  };
}

async function setup(status = adStatus(), live: boolean | null = null) {
  const fake = createFakeApi();
  fake.ok('ads:status', status);
  const clock = manualClock(NOW);
  const ads = new AdsState(fake.api, clock, () => live);
  await ads.load();
  const toasts = new ToastsState(clock);
  render(AdsPanel, { props: { ads, access: ALLOWED }, context: toastsContext(toasts) });
  render(Toasts, { props: { toasts } });
  return { fake, clock, ads };
}

/** Run ad break, then its confirm's Start. */
async function runBreak(): Promise<void> {
  await fireEvent.click(screen.getByRole('button', { name: 'Run ad break' }));
  await fireEvent.click(within(screen.getByRole('alertdialog')).getByRole('button', { name: 'Start the ad break' }));
}

const results = () => screen.getByRole('region', { name: 'Results' }).textContent ?? '';

describe('AdsPanel', () => {
  it('shows status, runs a break with a countdown, then refreshes', async () => {
    const { fake, clock } = await setup();
    expect(screen.getByText('3 of 4 per 60 min')).toBeTruthy();
    fake.ok('ads:run', { id: 'ad-1', remaining_ad_breaks: 2 });
    await fireEvent.input(screen.getByLabelText(/Length/), { target: { value: '60' } });
    await fireEvent.click(screen.getByRole('button', { name: 'Run ad break' }));
    expect(screen.getByRole('alertdialog').textContent).toContain('Run a 60-second ad break now?');
    expect(screen.getByRole('alertdialog').textContent).toContain('one of the 3 breaks left');
    expect(fake.argsOf('ads:run')).toEqual([]);
    await fireEvent.click(within(screen.getByRole('alertdialog')).getByRole('button', { name: 'Start the ad break' }));
    await settle();
    expect(fake.argsOf('ads:run')).toEqual([[{ seconds: 60 }]]);
    expect(results()).toContain('Ad break of 60 s started');
    expect(screen.getByRole('timer').textContent).toContain('1:00');
    clock.advance(15_000);
    await settle();
    expect(screen.getByRole('timer').textContent).toContain('0:45');
    const statusCalls = fake.argsOf('ads:status').length;
    clock.advance(45_000);
    await settle();
    expect(screen.queryByRole('timer')).toBeNull();
    expect(fake.argsOf('ads:status').length).toBe(statusCalls + 1);
  });

  it('explains a Conflict in plain words', async () => {
    const { fake } = await setup();
    fake.fail('ads:run', 'Conflict', 'ad break already in progress');
    await runBreak();
    await settle();
    const alert = screen.getByRole('alert');
    expect(alert.textContent).toContain('An ad break is already running');
    expect(alert.textContent).toContain('one ad break at a time');
    expect(results()).toContain('The ad break did not start');
  });

  it('holds Run while the stream is known to be offline, saying why; live or unknown, Run is there', async () => {
    await setup(adStatus(), false);
    const run = screen.getByRole<HTMLButtonElement>('button', { name: 'Run ad break' });
    expect(run.disabled).toBe(true);
    expect(document.getElementById(run.getAttribute('aria-describedby')!)?.textContent).toBe(
      'Go live first: Kick runs ad breaks only while you are live.',
    );
    for (const live of [true, null]) {
      cleanup();
      await setup(adStatus(), live);
      expect(screen.getByRole<HTMLButtonElement>('button', { name: 'Run ad break' }).disabled).toBe(false);
      expect(screen.queryByText(/Go live first/)).toBeNull();
    }
  });

  it('Cancel starts nothing', async () => {
    const { fake } = await setup();
    await fireEvent.click(screen.getByRole('button', { name: 'Run ad break' }));
    await fireEvent.click(within(screen.getByRole('alertdialog')).getByRole('button', { name: 'Cancel' }));
    await settle();
    expect(fake.argsOf('ads:run')).toEqual([]);
    expect(screen.queryByRole('alertdialog')).toBeNull();
    expect(results()).toBe('');
  });

  it('explains Ratelimited and BadRequest', async () => {
    const { fake } = await setup();
    fake.fail('ads:run', 'Ratelimited', 'too many');
    await runBreak();
    await settle();
    expect(screen.getByRole('alert').textContent).toContain('No ad breaks left for now');
    await fireEvent.click(screen.getByRole('button', { name: 'OK' }));
    fake.fail('ads:run', 'BadRequest', 'channel not eligible');
    await runBreak();
    await settle();
    expect(screen.getByRole('alert').textContent).toContain('Kick refused this ad break');
    expect(screen.getByRole('alert').textContent).not.toContain('channel not eligible');
    await fireEvent.click(screen.getByRole('button', { name: 'Details' }));
    expect(screen.getByRole('alert').textContent).toContain('channel not eligible');
  });

  it('keeps the length within 7–300 s', async () => {
    await setup();
    await fireEvent.input(screen.getByLabelText(/Length/), { target: { value: '5' } });
    expect(screen.getByText(/from 7 to 300/)).toBeTruthy();
    expect(screen.getByRole<HTMLButtonElement>('button', { name: 'Run ad break' }).disabled).toBe(true);
  });

  it('explains and offers enrolment when not opted in', async () => {
    const { fake } = await setup(adStatus({ opted_in: false }));
    expect(screen.getByText(/Kick decides eligibility/)).toBeTruthy();
    fake.ok('ads:status', adStatus({ opted_in: true }));
    await fireEvent.click(screen.getByRole('button', { name: 'Enroll' }));
    await settle();
    expect(fake.argsOf('ads:enroll')).toEqual([[]]);
    expect(screen.queryByRole('button', { name: 'Enroll' })).toBeNull();
  });

  it("shows a running break's countdown from Kick's status alone (a reload, a second panel)", async () => {
    const { clock } = await setup(adStatus({ ad_breaks: [breakStarted(20_000, 90)] }));
    expect(screen.getByRole('timer').textContent).toContain('1:10');
    expect(screen.getByRole<HTMLButtonElement>('button', { name: 'Run ad break' }).disabled).toBe(true);
    clock.advance(10_000);
    await settle();
    expect(screen.getByRole('timer').textContent).toContain('1:00');
  });

  it('does not count down a break that already ended', async () => {
    await setup(adStatus({ ad_breaks: [breakStarted(200_000, 90)] }));
    expect(screen.queryByRole('timer')).toBeNull();
  });

  it('answers Run during a break started elsewhere with its countdown, not a bare Conflict', async () => {
    const { fake } = await setup();
    expect(screen.queryByRole('timer')).toBeNull();
    fake.fail('ads:run', 'Conflict', 'ad break ad-running is still running');
    fake.ok('ads:status', adStatus({ ad_breaks: [breakStarted(30_000, 120)] }));
    await runBreak();
    await settle();
    expect(screen.getByRole('alert').textContent).toContain('An ad break is already running');
    expect(screen.getByRole('timer').textContent).toContain('1:30');
  });

  it('says "you must be offline to enroll" when Kick refuses an enrolment while live', async () => {
    const { fake } = await setup(adStatus({ opted_in: false }), true);
    expect(screen.getByText(/You are live now/)).toBeTruthy();
    fake.fail('ads:enroll', 'BadRequest', 'enrollInAds: Kick refused the request');
    await fireEvent.click(screen.getByRole('button', { name: 'Enroll' }));
    await settle();
    const alert = screen.getByRole('alert');
    expect(alert.textContent).toContain('You must be offline to enroll');
    expect(alert.textContent).not.toContain('Kick refused this ad break');
  });

  it('names what to allow for ads in Health’s words, with Kick’s names only behind Details', async () => {
    const { fake } = await setup();
    fake.handle('ads:run', () => ({
      ok: false,
      error: {
        code: 'MissingScope',
        message: 'startAdBreak needs the ads:write scope: sign in again to grant it',
        details: { scopes: ['ads:write'] },
      },
    }));
    await runBreak();
    await settle();
    const alert = screen.getByRole('alert');
    expect(alert.textContent).toContain(
      'To manage ads, sign in again and allow Greenroom to “see your ad breaks” and “run ad breaks”.',
    );
    expect(document.body.textContent).not.toMatch(/ads:read|ads:write|scope/);
    await fireEvent.click(within(alert).getByRole('button', { name: 'Details' }));
    expect(alert.textContent).toContain('Kick permission: ads:write');
  });

  it("goes by Kick's own code when it sends one (CHANNEL_LIVE), whatever the panel thinks", async () => {
    const { fake } = await setup(adStatus({ opted_in: false }), null);
    fake.handle('ads:enroll', () => ({
      ok: false,
      error: {
        code: 'BadRequest',
        message: 'enrollInAds: Kick refused the request',
        details: { status: 400, kickCode: 'CHANNEL_LIVE', kickMessage: 'channel: must be offline to enroll in ads' },
      },
    }));
    await fireEvent.click(screen.getByRole('button', { name: 'Enroll' }));
    await settle();
    expect(screen.getByRole('alert').textContent).toContain('You must be offline to enroll');
    await fireEvent.click(screen.getByRole('button', { name: 'Details' }));
    expect(screen.getByRole('alert').textContent).toContain('HTTP 400');
    expect(screen.getByRole('alert').textContent).toContain('CHANNEL_LIVE');
  });
});
