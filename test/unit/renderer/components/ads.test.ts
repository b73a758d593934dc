import '@testing-library/svelte/vitest';
import { fireEvent, render, screen } from '@testing-library/svelte';
import { describe, expect, it } from 'vitest';
import AdsPanel from '../../../../renderer/src/components/AdsPanel.svelte';
import { AdsState } from '../../../../renderer/src/lib/state/ads.svelte';
import { createFakeApi, manualClock, settle } from '../fake-api';
import { adStatus } from '../fixtures';

async function setup(status = adStatus()) {
  const fake = createFakeApi();
  fake.ok('ads:status', status);
  const clock = manualClock();
  const ads = new AdsState(fake.api, clock);
  await ads.load();
  render(AdsPanel, { props: { ads, canManage: true } });
  return { fake, clock, ads };
}

describe('AdsPanel', () => {
  it('shows status, runs a break with a countdown, then refreshes', async () => {
    const { fake, clock } = await setup();
    expect(screen.getByText('3 of 4 per 60 min')).toBeTruthy();
    fake.ok('ads:run', { id: 'ad-1', remaining_ad_breaks: 2 });
    await fireEvent.input(screen.getByLabelText(/Length/), { target: { value: '60' } });
    await fireEvent.click(screen.getByRole('button', { name: 'Run ad break' }));
    await settle();
    expect(fake.argsOf('ads:run')).toEqual([[{ seconds: 60 }]]);
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
    await fireEvent.click(screen.getByRole('button', { name: 'Run ad break' }));
    await settle();
    const alert = screen.getByRole('alert');
    expect(alert.textContent).toContain('An ad break is already running');
    expect(alert.textContent).toContain('one ad break at a time');
  });

  it('explains Ratelimited and BadRequest', async () => {
    const { fake } = await setup();
    fake.fail('ads:run', 'Ratelimited', 'too many');
    await fireEvent.click(screen.getByRole('button', { name: 'Run ad break' }));
    await settle();
    expect(screen.getByRole('alert').textContent).toContain('No ad breaks left for now');
    await fireEvent.click(screen.getByRole('button', { name: 'OK' }));
    fake.fail('ads:run', 'BadRequest', 'channel not eligible');
    await fireEvent.click(screen.getByRole('button', { name: 'Run ad break' }));
    await settle();
    expect(screen.getByRole('alert').textContent).toContain('Kick said: channel not eligible');
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
});
