/**
 * The stream history's card in Health (docs/history.md#in-health): each state in a streamer's words, the figures
 * that say how it is doing, the technical reason only behind Details, and the card inside the whole Health panel.
 */
import '@testing-library/svelte/vitest';
import { render, screen, within } from '@testing-library/svelte';
import { describe, expect, it } from 'vitest';
import HealthHistory from '../../../../renderer/src/components/HealthHistory.svelte';
import HealthPanel from '../../../../renderer/src/components/HealthPanel.svelte';
import { formatBytes } from '../../../../renderer/src/lib/history-health-words';
import { HealthState } from '../../../../renderer/src/lib/state/health.svelte';
import { SessionState } from '../../../../renderer/src/lib/state/session.svelte';
import type { HistoryHealthView } from '../../../../shared/views';
import { createFakeApi, settle } from '../fake-api';
import { health, snapshot } from '../fixtures';

const NOW = Date.parse('2026-11-27T12:00:00Z');
const DAY = 86_400_000;

function view(over: Partial<HistoryHealthView> = {}): HistoryHealthView {
  return {
    state: 'ready',
    message: null,
    detail: null,
    unavailableBecause: null,
    catchingUp: null,
    movedAside: null,
    sizeBytes: 5 * 1024 * 1024 + 300 * 1024,
    streams: 41,
    oldestChatMs: NOW - 89 * DAY - 3_600_000,
    chatDays: 90,
    ...over,
  };
}

function card(v: HistoryHealthView) {
  render(HealthHistory, { props: { view: v, now: NOW } });
  const region = screen.getByRole('region', { name: 'Stream history' });
  return {
    region,
    state: screen.getByTestId('history-state').textContent,
    text: region.textContent.replace(/\s+/g, ' '),
  };
}

describe('the stream history in Health', () => {
  it('says a chat line from earlier today is from today, never "0 days ago"', () => {
    const { text: fresh } = card(view({ oldestChatMs: NOW - 3_600_000 }));
    expect(fresh).toMatch(/Oldest chat line kept: \d{4}-\d\d-\d\d \(today\)\./);
  });

  it('keeping the history: size on disk, streams kept, the oldest chat line and the days', () => {
    const { state, text } = card(view());
    expect(state).toBe('Keeping the history');
    expect(text).toContain('5.3 MB on disk, 41 streams kept.');
    expect(text).toContain('Oldest chat line kept: 2026-08-30 (89 days ago).');
    expect(text).toContain(
      "Chat lines are kept 90 days; follows, subs, gifts, KICKs and each viewer's counts for good.",
    );
  });

  it('no chat yet and one stream are said as such', () => {
    const { text } = card(view({ oldestChatMs: null, streams: 1, sizeBytes: 800 }));
    expect(text).toContain('800 bytes on disk, 1 stream kept.');
    expect(text).toContain('No chat lines kept yet.');
  });

  it('starting: reading the journal, then catching up with N events', () => {
    expect(card(view({ state: 'starting', catchingUp: null, sizeBytes: null, streams: null })).state).toBe(
      'Starting: reading the journal',
    );
    document.body.innerHTML = '';
    const { state, text } = card(view({ state: 'starting', catchingUp: 12_345, sizeBytes: null, streams: null }));
    expect(state).toBe('Starting: catching up with the journal (12,345 events)');
    expect(text).not.toContain('on disk');
  });

  it('needs a newer Node: plain words, the technical reason behind Details', () => {
    const detail = 'node:sqlite needs Node 22.13 or later; this is Node 20.20.0';
    const { region, state } = card(
      view({
        state: 'unavailable',
        unavailableBecause: 'needs-newer-node',
        message: 'Past streams and recaps are not available in this copy of Greenroom. Everything else works.',
        detail,
        sizeBytes: null,
        streams: null,
        oldestChatMs: null,
      }),
    );
    // What to do, not "this copy of Greenroom".
    expect(state).toMatch(
      /^Not available: .*Node older than 22\.13.*Greenroom runs it on Node 24 when it can download it/,
    );
    expect(state).not.toContain('this copy');
    const details = region.querySelector('details')!;
    expect(details.open).toBe(false);
    expect(details.textContent).toContain(detail);
    expect(region.textContent.replace(details.textContent, '')).not.toMatch(/sqlite|20\.20/);
    expect(region.textContent).toContain('Everything else in Greenroom works.');
  });

  it('could not be opened is said so', () => {
    const { state } = card(view({ state: 'unavailable', unavailableBecause: 'could-not-open', detail: 'EACCES' }));
    expect(state).toBe('Not available: the history could not be opened this time.');
  });

  it('a damaged store moved aside: named, and the history rebuilt', () => {
    const { state, text } = card(view({ movedAside: 'history.sqlite.damaged-2' }));
    expect(state).toBe('Keeping the history. A damaged store was moved aside');
    expect(text).toContain("kept as history.sqlite.damaged-2 in Greenroom's data folder, and the history was rebuilt");
    expect(text).toContain('41 streams kept.');
  });

  it('a name or reason from main is text, never markup', () => {
    const { region } = card(view({ movedAside: '<img src=x onerror=alert(1)>', detail: '<b>x</b>' }));
    expect(region.querySelector('img, b')).toBeNull();
  });

  it.each([
    [0, '0 bytes'],
    [1023, '1023 bytes'],
    [1024, '1.0 KB'],
    [15 * 1024 * 1024, '15 MB'],
    [3 * 1024 ** 4, '3.0 TB'],
  ])('says %i bytes as %s', (bytes, words) => {
    expect(formatBytes(bytes)).toBe(words);
  });

  it('is a card of the Health panel, and absent where an older main sends none', async () => {
    const fake = createFakeApi();
    fake.ok('app:snapshot', snapshot());
    const session = new SessionState(fake.api);
    await session.load();
    const state = new HealthState(fake.api);
    state.apply({ ...health(), history: view({ streams: 3 }) });
    render(HealthPanel, { props: { health: state, session, copy: () => Promise.resolve(true), now: NOW } });
    await settle();
    const region = screen.getByRole('region', { name: 'Stream history' });
    expect(within(region).getByText(/3 streams kept/)).toBeTruthy();
    state.apply(health());
    await settle();
    expect(screen.queryByRole('region', { name: 'Stream history' })).toBeNull();
  });
});
