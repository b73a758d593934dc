import '@testing-library/svelte/vitest';
import { fireEvent, render, screen } from '@testing-library/svelte';
import { describe, expect, it } from 'vitest';
import ActivityFeed from '../../../../renderer/src/components/ActivityFeed.svelte';
import AlertQueueControls from '../../../../renderer/src/components/AlertQueueControls.svelte';
import { AlertQueueState } from '../../../../renderer/src/lib/state/alert-queue.svelte';
import { FeedState } from '../../../../renderer/src/lib/state/feed.svelte';
import { RedemptionsState } from '../../../../renderer/src/lib/state/redemptions.svelte';
import type { AlertQueueView, DroppedAlertLimit } from '../../../../shared/overlays';
import { createFakeApi, settle } from '../fake-api';
import { draftQueueSettings } from './alert-queue-fixtures.svelte';
import { feedItem } from '../fixtures';

function queueView(over: Partial<AlertQueueView> = {}): AlertQueueView {
  return {
    paused: false,
    current: { id: 'm1', kind: 'kicks', text: 'cat sent 100 KICKs!' },
    waiting: 1,
    boxesOpen: 1,
    maxAgeSec: 120,
    tooOld: { count: 0, lateCount: 0, items: [] },
    lastAction: null,
    ...over,
  };
}

/** One alert in the too-old list, held back by `limit`. */
const item = (id: string, ageMs: number, limit: DroppedAlertLimit = 'alert-age') => ({
  id,
  feedItemId: `feed-${id}`,
  kind: 'gifted-subs' as const,
  text: `${id} gifted 5 subs!`,
  eventAtMs: 0,
  ageMs,
  limit,
});

async function setup(view = queueView(), withSettings = false) {
  const fake = createFakeApi();
  fake.ok('alerts:status', view);
  const alerts = new AlertQueueState(fake.api);
  await alerts.load();
  const settings = draftQueueSettings();
  render(AlertQueueControls, { props: { alerts, ...(withSettings ? { settings } : {}) } });
  return { fake, alerts, settings };
}

describe('AlertQueueControls', () => {
  it('shows what is on screen and how many wait, and pauses and resumes', async () => {
    const { fake } = await setup();
    expect(screen.getByTestId('alert-queue-status').textContent).toMatch(
      /Playing\s+· On screen: cat sent 100 KICKs!\s+· 1 alert waiting/,
    );
    fake.ok('alerts:pause', queueView({ paused: true, lastAction: { what: 'pause', by: null, atMs: 0 } }));
    await fireEvent.click(screen.getByRole('button', { name: 'Pause alerts' }));
    await settle();
    expect(fake.argsOf('alerts:pause')).toEqual([[{ paused: true }]]);
    expect(screen.getByRole('button', { name: 'Resume alerts' }).getAttribute('aria-pressed')).toBe('true');
    expect(screen.getByText(/^Paused from the panel at/)).toBeTruthy();
  });

  it('follows main’s pushes, with plurals', async () => {
    const { alerts } = await setup();
    alerts.apply(queueView({ current: null, waiting: 3, boxesOpen: 0 }));
    await settle();
    expect(screen.getByTestId('alerts-waiting').textContent).toBe('3 alerts waiting');
    expect(screen.getByText(/No alert box is open in OBS/)).toBeTruthy();
    expect(screen.getByRole<HTMLButtonElement>('button', { name: 'Skip alert' }).disabled).toBe(true);
  });

  it('skips the alert the streamer saw on screen', async () => {
    const { fake } = await setup();
    fake.ok('alerts:skip', queueView({ current: null, waiting: 0 }));
    await fireEvent.click(screen.getByRole('button', { name: 'Skip alert' }));
    await settle();
    expect(fake.argsOf('alerts:skip')).toEqual([[{ id: 'm1' }]]);
  });

  it('asks before Clear; Cancel clears nothing', async () => {
    const { fake } = await setup(queueView({ waiting: 4 }));
    fake.ok('alerts:clear', queueView({ current: null, waiting: 0 }));
    await fireEvent.click(screen.getByRole('button', { name: 'Clear queue…' }));
    expect(screen.getByRole('alert').textContent).toMatch(/drop 4 waiting alerts\?/);
    await fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(fake.argsOf('alerts:clear')).toEqual([]);
    await fireEvent.click(screen.getByRole('button', { name: 'Clear queue…' }));
    await fireEvent.click(screen.getByRole('button', { name: 'Clear queue' }));
    await settle();
    expect(fake.argsOf('alerts:clear')).toHaveLength(1);
    expect(screen.getByTestId('alerts-waiting').textContent).toBe('0 alerts waiting');
  });

  it('lists the alerts that were too old, with Replay and Dismiss', async () => {
    const { fake } = await setup(
      queueView({
        tooOld: { count: 3, lateCount: 0, items: [item('a', 4 * 60_000), item('b', 45_000), item('c', 61_000)] },
      }),
    );
    expect(screen.getByText('3 alerts were too old to play (older than 120 s)')).toBeTruthy();
    expect(screen.getByText('4 min late')).toBeTruthy();
    expect(screen.getByText('45 s late')).toBeTruthy();
    fake.fail('alerts:replay', 'InvalidArgument', 'This event has no alert to replay');
    await fireEvent.click(screen.getAllByRole('button', { name: 'Replay' })[1]!);
    await settle();
    expect(fake.argsOf('alerts:replay')).toEqual([[{ feedItemId: 'feed-b' }]]);
    expect(screen.getByText('This event has no alert to replay')).toBeTruthy();
    fake.ok('alerts:dismiss-too-old', queueView());
    await fireEvent.click(screen.getByRole('button', { name: 'Dismiss list' }));
    await settle();
    expect(screen.queryByText(/too old to play/)).toBeNull();
  });

  it('says how late Kick delivered the alerts the late age held back, never the alert box’s age', async () => {
    const follow = (id: string) => ({ ...item(id, 10 * 60_000, 'late-age'), kind: 'follow' as const });
    await setup(queueView({ tooOld: { count: 2, lateCount: 2, items: [follow('a'), follow('b')] } }));
    expect(screen.getByText('2 alerts were too late to play (Kick delivered them late)')).toBeTruthy();
    expect(screen.getAllByText('10 min late (Kick delivered it late)')).toHaveLength(2);
    expect(screen.queryByText(/older than 120 s/)).toBeNull();
  });

  it('names both limits when each held some back, counted apart', async () => {
    const { alerts } = await setup(
      queueView({
        tooOld: { count: 4, lateCount: 1, items: [item('a', 10 * 60_000, 'late-age'), item('b', 150_000)] },
      }),
    );
    expect(
      screen.getByText('4 alerts were too old to play (1 delivered late by Kick, 3 older than 120 s)'),
    ).toBeTruthy();
    expect(screen.getByText('10 min late (Kick delivered it late)')).toBeTruthy();
    expect(screen.getByText('3 min late')).toBeTruthy();
    alerts.apply(queueView({ tooOld: { count: 1, lateCount: 1, items: [item('a', 45_000, 'late-age')] } }));
    await settle();
    expect(screen.getByText('1 alert was too late to play (Kick delivered it late)')).toBeTruthy();
  });

  it('marks a set age outside 10 s to 1 hour at its field, naming the limit', async () => {
    const { settings } = await setup(queueView(), true);
    const field = screen.getByRole('spinbutton', { name: /Drop alerts older than/ });
    await fireEvent.input(field, { target: { value: '5' } });
    expect(settings.maxAgeSec).toBe(5);
    expect(field.getAttribute('aria-invalid')).toBe('true');
    expect(screen.getByText(/from 10 to 3600 seconds/)).toBeTruthy();
    await fireEvent.input(field, { target: { value: '90' } });
    expect(field.getAttribute('aria-invalid')).toBe('false');
  });
});

describe('the compact queue above the activity feed', () => {
  it('shows only while there is something to control', async () => {
    const fake = createFakeApi();
    const alerts = new AlertQueueState(fake.api);
    alerts.apply(queueView({ current: null, waiting: 0, boxesOpen: 0 }));
    render(AlertQueueControls, { props: { alerts, compact: true } });
    expect(screen.queryByRole('region', { name: 'Alert queue' })).toBeNull();
    alerts.apply(queueView({ current: null, waiting: 0, boxesOpen: 0, paused: true }));
    await settle();
    expect(screen.getByRole('button', { name: 'Resume alerts' })).toBeTruthy();
    expect(screen.queryByText(/No alert box is open/)).toBeNull();
  });

  it('says why alerts wait while no alert box is open', async () => {
    const fake = createFakeApi();
    const alerts = new AlertQueueState(fake.api);
    alerts.apply(queueView({ current: null, waiting: 26, boxesOpen: 0 }));
    render(AlertQueueControls, { props: { alerts, compact: true } });
    await settle();
    expect(screen.getByTestId('alerts-waiting').textContent).toBe('26 alerts waiting');
    expect(screen.getByText(/No alert box is open in OBS: alerts wait until one is/)).toBeTruthy();
  });
});

describe('Replay alert in the activity feed', () => {
  it('is offered on entries that raised an alert, and says what happened', async () => {
    const fake = createFakeApi();
    fake.ok('feed:history', [
      feedItem({ id: 'gift-1', kind: 'gifted-subs', text: 'ben gifted 5 subs', username: 'ben' }),
      feedItem({ id: 'ban-1', kind: 'ban', text: 'troll was banned', username: 'troll' }),
    ]);
    const feed = new FeedState(fake.api);
    await feed.loadHistory();
    const alerts = new AlertQueueState(fake.api);
    render(ActivityFeed, {
      props: {
        feed,
        redemptions: new RedemptionsState(fake.api),
        canManageRedemptions: true,
        onUser: () => {},
        alerts,
      },
    });
    expect(screen.getAllByRole('button', { name: 'Replay alert' })).toHaveLength(1);
    fake.ok('alerts:replay', queueView());
    await fireEvent.click(screen.getByRole('button', { name: 'Replay alert' }));
    await settle();
    expect(fake.argsOf('alerts:replay')).toEqual([[{ feedItemId: 'gift-1' }]]);
    expect(screen.getByText('Queued')).toBeTruthy();
  });
});
