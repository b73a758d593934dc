/**
 * The stream history through the whole panel: the Streams tab reads main's history and follows
 * `history:changed`, and a viewer's card shows their story across restarts, saying where Greenroom's knowledge
 * of a follow starts.
 */
import '@testing-library/svelte/vitest';
import { fireEvent, render, screen, within } from '@testing-library/svelte';
import { describe, expect, it } from 'vitest';
import App from '../../../../renderer/src/App.svelte';
import { createFakeApi, manualClock, manualFrames, settle } from '../fake-api';
import { message } from '../fixtures';
import { DAY, START, recap, story, streamList } from './history-fixtures';

const ready = { state: 'ready' as const, message: null, detail: null, chatDays: 90, liveStreamId: null };

async function app(view: 'full' | 'chat' = 'full') {
  const fake = createFakeApi();
  const frames = manualFrames();
  fake.ok('history:streams', streamList());
  fake.ok('history:recap', recap());
  render(App, { props: { api: fake.api, view, deps: { scheduler: frames.scheduler, clock: manualClock(START) } } });
  await settle();
  return { fake, frames };
}

async function openCard(fake: ReturnType<typeof createFakeApi>, frames: ReturnType<typeof manualFrames>) {
  fake.emit('kick:event', { kind: 'chat', message: message({ messageId: 'm1', userId: 42, username: 'troll' }) });
  frames.run();
  await settle();
  const row = document.querySelector<HTMLElement>('[data-message-id="m1"]')!;
  await fireEvent.click(within(row).getByRole('button', { name: 'troll' }));
  await settle();
  return screen.getByRole('dialog', { name: 'troll' });
}

describe('the stream history in the panel', () => {
  it('has a Streams tab that reads the history once shown, and again when main says it changed', async () => {
    const { fake } = await app();
    expect(fake.argsOf('history:streams')).toHaveLength(0);
    await fireEvent.click(screen.getByRole('tab', { name: 'Streams' }));
    await settle();
    const panel = screen.getByRole('tabpanel');
    expect(within(panel).getAllByText(/^Ranked grind/)).toHaveLength(1);
    fake.emit('history:changed', { what: 'streams', status: { ...ready, liveStreamId: START }, endedStreamId: null });
    await settle();
    expect(fake.argsOf('history:streams')).toHaveLength(2);
    expect(within(panel).getByText('LIVE')).toBeTruthy();
    // A status-only change reads nothing again.
    fake.emit('history:changed', { what: 'status', status: ready, endedStreamId: null });
    await settle();
    expect(fake.argsOf('history:streams')).toHaveLength(2);
  });

  it('reads the list and the open recap again when main’s app restarted, and not before it was shown', async () => {
    const { fake } = await app();
    fake.emit('app:restarted', { message: 'Restarted with the new settings.' });
    await settle();
    expect(fake.argsOf('history:status')).toEqual([]);
    await fireEvent.click(screen.getByRole('tab', { name: 'Streams' }));
    await settle();
    await fireEvent.click(screen.getAllByRole('button', { name: /Open the recap of/ })[0]!);
    await settle();
    fake.emit('app:restarted', { message: 'Restarted with the new settings.' });
    await settle();
    expect(fake.argsOf('history:streams')).toHaveLength(2);
    expect(fake.argsOf('history:recap')).toEqual([[{ streamId: START }], [{ streamId: START }]]);
  });

  it('marks the Streams tab when a stream ends, until its recap is opened', async () => {
    const { fake } = await app();
    const tab = () => screen.getByRole('tab', { name: /^Streams\b/ });
    expect(tab().textContent?.trim()).toBe('Streams');
    fake.emit('history:changed', { what: 'streams', status: ready, endedStreamId: START });
    await settle();
    expect(within(tab()).getByLabelText('1 recap ready').textContent).toBe('1');
    await fireEvent.click(tab());
    await settle();
    await fireEvent.click(screen.getByRole('button', { name: 'See the recap' }));
    await settle();
    expect(fake.argsOf('history:recap')).toEqual([[{ streamId: START }]]);
    expect(tab().textContent?.trim()).toBe('Streams');
  });

  it('main refusing every read while the history is off is one plain line, not an error per list', async () => {
    const { fake } = await app();
    fake.fail('history:status', 'HistoryUnavailable', 'history unavailable (node:sqlite is not in this Node)');
    await fireEvent.click(screen.getByRole('tab', { name: 'Streams' }));
    await settle();
    const off = screen.getByTestId('history-unavailable');
    expect(off.textContent).toContain('The stream history is not running here.');
    expect(off.textContent).not.toContain('sqlite');
    expect(screen.queryByRole('alert')).toBeNull();
    expect(fake.argsOf('history:streams')).toEqual([]);
  });

  it('the user card tells a viewer’s story, and that a follow is as far as Greenroom saw', async () => {
    const { fake, frames } = await app('chat');
    fake.ok('history:viewer', story());
    const card = await openCard(fake, frames);
    expect(fake.argsOf('history:viewer')).toEqual([[{ userId: 42 }]]);
    const section = within(card).getByRole('region', { name: 'History' });
    const value = (label: string) => within(section).getByText(label).nextElementSibling?.textContent;
    expect(value('Followed')).toMatch(/^Since \d{4}-\d\d-\d\d, as far as Greenroom saw \(it has watched since /);
    expect(value('Subscribed')).toBe('3 months');
    expect(value('Gifted subs')).toBe('5');
    expect(value('KICKs')).toBe('250');
    expect(value('Messages')).toBe('1,234');
    expect(value('Streams attended')).toBe('17');
  });

  it('a follow no later than where the history starts may be older, and the card says so', async () => {
    const { fake, frames } = await app('chat');
    const since = START - 60 * DAY;
    fake.ok('history:viewer', story({ followedAtMs: since, historySinceMs: since }));
    const card = await openCard(fake, frames);
    expect(within(card).getByText(/^Since at least \d{4}-\d\d-\d\d \(when Greenroom started watching\)$/)).toBeTruthy();
  });

  it('a follow Greenroom saw later on the day the history starts is that day, never the same date twice', async () => {
    const { fake, frames } = await app('chat');
    const since = new Date(2026, 10, 27, 9, 0).getTime();
    fake.ok('history:viewer', story({ followedAtMs: since + 8 * 3_600_000, historySinceMs: since }));
    const card = await openCard(fake, frames);
    expect(within(card).getByText('Since 2026-11-27, as far as Greenroom saw')).toBeTruthy();
  });

  it('no follow seen is not "never followed"', async () => {
    const { fake, frames } = await app('chat');
    fake.ok('history:viewer', story({ followedAtMs: null }));
    const card = await openCard(fake, frames);
    expect(within(card).getByText(/^No follow seen \(Greenroom has watched since /)).toBeTruthy();
  });

  it('says so for a viewer the history never saw, after saying it reads', async () => {
    const { fake, frames } = await app('chat');
    const held = fake.hold('history:viewer');
    const card = await openCard(fake, frames);
    expect(within(card).getByText('Reading the history…')).toBeTruthy();
    held.release({ ok: true, value: null });
    await settle();
    expect(within(card).getByText('Greenroom has not seen this viewer in any stream yet.')).toBeTruthy();
  });

  it('where the history is off, the card says so in one plain line and the rest of the card works', async () => {
    const { fake, frames } = await app('chat');
    fake.fail('history:viewer', 'HistoryUnavailable', 'history unavailable (node:sqlite is not in this Node)');
    const card = await openCard(fake, frames);
    const section = within(card).getByRole('region', { name: 'History' });
    expect(section.textContent).toContain('The stream history is not running here.');
    expect(section.textContent).not.toContain('sqlite');
    expect(within(card).queryByRole('alert')).toBeNull();
    expect(within(card).getByRole('heading', { name: 'Recent messages' })).toBeTruthy();
  });
});
