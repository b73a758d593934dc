import '@testing-library/svelte/vitest';
import { fireEvent, render, screen, within } from '@testing-library/svelte';
import { afterEach, describe, expect, it, vi } from 'vitest';
import StreamsView from '../../../../renderer/src/components/history/StreamsView.svelte';
import { HistoryState } from '../../../../renderer/src/lib/state/history.svelte';
import { HISTORY_SEARCH_MAX } from '../../../../shared/history';
import { createFakeApi, manualClock, settle } from '../fake-api';
import { START, recap, streamList } from './history-fixtures';

async function shown(setup: (fake: ReturnType<typeof createFakeApi>) => void = () => {}) {
  const fake = createFakeApi();
  fake.ok('history:streams', streamList());
  setup(fake);
  const history = new HistoryState(fake.api, manualClock());
  const copied: string[] = [];
  const copy = (text: string) => (copied.push(text), Promise.resolve(true));
  const users: [number | null, string][] = [];
  render(StreamsView, {
    props: { history, copy, onUser: (id: number | null, name: string) => users.push([id, name]) },
  });
  await history.load();
  await settle();
  return { fake, history, copied, users };
}

afterEach(() => vi.restoreAllMocks());

describe('Streams view', () => {
  it('lists past streams with their figures, each beside the stream before it', async () => {
    await shown();
    const rows = screen.getAllByRole('listitem').filter((li) => li.classList.contains('stream'));
    expect(rows).toHaveLength(2);
    // A title is text, never markup.
    expect(within(rows[0]!).getByText('Ranked grind <b>bold</b>')).toBeTruthy();
    expect(within(rows[0]!).getByText('1,500')).toBeTruthy();
    expect(within(rows[0]!).getByLabelText('300 more than the stream before').textContent).toBe('+300');
    expect(within(rows[0]!).getByLabelText('3 fewer than the stream before').textContent).toBe('−3');
    expect(within(rows[0]!).getByLabelText('1 h 00 min longer than the stream before')).toBeTruthy();
    // The first stream has nothing before it: no comparison at all, not "+0".
    expect(rows[1]!.querySelector('.delta')).toBeNull();
  });

  it('opens a recap with its lists and figures, copies the thank-you list, and goes back', async () => {
    const { fake, copied, users } = await shown((f) => f.ok('history:recap', recap()));
    await fireEvent.click(screen.getAllByRole('button', { name: /Open the recap of/ })[0]!);
    await settle();
    expect(fake.argsOf('history:recap')).toEqual([[{ streamId: START }]]);
    const followers = screen.getByRole('region', { name: 'New followers' });
    expect(within(followers).getByText('fresh_fan')).toBeTruthy();
    expect(within(followers).getByText('second_fan')).toBeTruthy();
    expect(within(screen.getByRole('region', { name: 'Renewed subscriptions' })).getByText('14 months')).toBeTruthy();
    const gifts = screen.getByRole('region', { name: 'Gifted subs' });
    expect(within(gifts).getByText('10 subs')).toBeTruthy();
    expect(within(gifts).getByText('Anonymous gifters')).toBeTruthy();
    expect(within(screen.getByRole('region', { name: 'KICKs' })).getByText('1,000 KICKs')).toBeTruthy();
    expect(within(screen.getByRole('region', { name: 'Redemptions' })).getByText('4 (1 rejected)')).toBeTruthy();
    expect(screen.getByText(/^88 messages in the minute from \d\d:\d\d$/)).toBeTruthy();
    // A heading counts what is listed: 4 redemptions of one reward, 1,000 KICKs from one viewer.
    const heading = (name: string) =>
      within(screen.getByRole('region', { name })).getByRole('heading').textContent?.replace(/\s+/g, ' ');
    expect(heading('Redemptions')).toBe('Redemptions 4 of 1 reward');
    expect(heading('KICKs')).toBe('KICKs 1,000 from 1 viewer');
    expect(heading('Gifted subs')).toBe('Gifted subs 12 from 2 gifters');
    expect(screen.getByText(/4\.2 s, at/)).toBeTruthy();
    expect(screen.getByText('Bans and timeouts').nextElementSibling?.textContent).toBe('1 ban, 2 timeouts');
    // Ad breaks are not recorded: said so, never a 0 that reads as "none".
    expect(screen.getByText('Ad breaks').nextElementSibling?.textContent).toBe('Not recorded');
    // Each chart has its words, for a screen reader and where no canvas draws.
    expect(screen.getByText(/^96 messages; busiest minute 88, in the minute from \d\d:\d\d\.$/)).toBeTruthy();
    await fireEvent.click(screen.getByRole('button', { name: 'Copy' }));
    expect(copied).toEqual(['Gifted subs: generous (10)\nKICKs: kicker (1000)']);
    await fireEvent.click(
      within(screen.getByRole('region', { name: 'KICKs' })).getByRole('button', { name: 'kicker' }),
    );
    expect(users).toEqual([[6, 'kicker']]);
    await fireEvent.click(screen.getByRole('button', { name: '← All streams' }));
    expect(screen.getByRole('list', { name: 'Past streams' })).toBeTruthy();
  });

  it('says nothing of the seconds a live status takes to arrive', async () => {
    const onTime = recap();
    onTime.stream.seenFromMs = START + 20_000;
    await shown((f) => f.ok('history:recap', onTime));
    await fireEvent.click(screen.getAllByRole('button', { name: /Open the recap of/ })[0]!);
    await settle();
    expect(screen.getByRole('heading', { name: 'Ranked grind <b>bold</b>' })).toBeTruthy();
    expect(screen.queryByText(/first heard this stream/)).toBeNull();
  });

  it('says when Greenroom joined a stream already live, so the recap is read as from then on', async () => {
    const joined = recap();
    joined.stream.seenFromMs = START + 45 * 60_000;
    await shown((f) => f.ok('history:recap', joined));
    await fireEvent.click(screen.getAllByRole('button', { name: /Open the recap of/ })[0]!);
    await settle();
    expect(
      screen.getByText(
        /^Greenroom first heard this stream was live at .*, 45 min after it started: what happened before/,
      ),
    ).toBeTruthy();
  });

  it('exports the recap as main wrote it, as a download under main’s file name', async () => {
    const { fake } = await shown((f) => {
      f.ok('history:recap', recap());
      f.ok('history:export-recap', { fileName: 'recap.csv', mimeType: 'text/csv', text: 'section,name\n' });
    });
    const blobs: Blob[] = [];
    vi.spyOn(URL, 'createObjectURL').mockImplementation((b) => (blobs.push(b as Blob), 'blob:x'));
    const names: string[] = [];
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      names.push(this.download);
    });
    await fireEvent.click(screen.getAllByRole('button', { name: /Open the recap of/ })[0]!);
    await settle();
    await fireEvent.click(screen.getByRole('button', { name: 'Export CSV' }));
    await settle();
    expect(fake.argsOf('history:export-recap')).toEqual([[{ streamId: START, format: 'csv' }]]);
    expect(names).toEqual(['recap.csv']);
    expect(await blobs[0]!.text()).toBe('section,name\n');
    // A failed export says why, and nothing is downloaded.
    fake.fail('history:export-recap', 'Internal', 'disk full');
    await fireEvent.click(screen.getByRole('button', { name: 'Export JSON' }));
    await settle();
    expect(names).toEqual(['recap.csv']);
    expect(screen.getByRole('alert').textContent).toContain('Something went wrong inside Greenroom');
  });

  it('where the history cannot run, says so once in plain words, with the reason behind Details', async () => {
    await shown((f) =>
      f.ok('history:status', {
        state: 'unavailable',
        message: 'The stream history needs a newer Greenroom build, so past streams are not kept.',
        detail: 'node:sqlite is not in Node 20.20.0',
        chatDays: 90,
        liveStreamId: null,
      }),
    );
    const off = screen.getByTestId('history-unavailable');
    expect(off.textContent).toContain('past streams are not kept');
    expect(off.textContent).not.toContain('sqlite');
    expect(screen.queryByRole('alert')).toBeNull();
    // A neutral note, not the red error style: nothing failed.
    expect(off.querySelector('.error-note, .error-text')).toBeNull();
    expect(off.querySelector('.note')?.textContent).toContain('past streams are not kept');
    await fireEvent.click(within(off).getByRole('button', { name: 'Details' }));
    expect(off.textContent).toContain('node:sqlite');
  });

  it('a search too long is refused at the field, naming the limit, and nothing is asked of main', async () => {
    const { fake } = await shown();
    const input = screen.getByLabelText('Find a viewer');
    await fireEvent.input(input, { target: { value: 'x'.repeat(HISTORY_SEARCH_MAX + 1) } });
    await fireEvent.click(screen.getByRole('button', { name: 'Search' }));
    await settle();
    expect(screen.getByText(`A search is at most ${HISTORY_SEARCH_MAX} characters; this one has 51.`)).toBeTruthy();
    expect(input.getAttribute('aria-invalid')).toBe('true');
    expect(fake.argsOf('history:search')).toEqual([]);
    // Spaces only are no search either.
    await fireEvent.input(input, { target: { value: '   ' } });
    await fireEvent.click(screen.getByRole('button', { name: 'Search' }));
    expect(fake.argsOf('history:search')).toEqual([]);
    fake.ok('history:search', [
      { userId: 9, username: 'found_me', firstSeenMs: START, lastSeenMs: START, messages: 2 },
    ]);
    await fireEvent.input(input, { target: { value: ' found ' } });
    await fireEvent.click(screen.getByRole('button', { name: 'Search' }));
    await settle();
    expect(fake.argsOf('history:search')).toEqual([[{ query: 'found' }]]);
    expect(within(screen.getByRole('list', { name: 'Viewers found' })).getByText('found_me')).toBeTruthy();
  });

  it('offers the recap of a stream that just ended, and reads the list again', async () => {
    const { fake, history } = await shown((f) => f.ok('history:recap', recap()));
    const status = { state: 'ready' as const, message: null, detail: null, chatDays: 90, liveStreamId: null };
    history.apply({ what: 'streams', status, endedStreamId: START });
    await settle();
    expect(fake.argsOf('history:streams')).toHaveLength(2);
    expect(screen.getByRole('status').textContent).toContain('Your stream has ended.');
    await fireEvent.click(screen.getByRole('button', { name: 'See the recap' }));
    await settle();
    expect(fake.argsOf('history:recap')).toEqual([[{ streamId: START }]]);
    expect(screen.getByRole('heading', { name: 'Ranked grind <b>bold</b>' })).toBeTruthy();
  });
});
