import '@testing-library/svelte/vitest';
import { fireEvent, render, screen } from '@testing-library/svelte';
import { expect, it } from 'vitest';
import StreamsView from '../../../../renderer/src/components/history/StreamsView.svelte';
import { HistoryState } from '../../../../renderer/src/lib/state/history.svelte';
import type { HistoryRecapFigures } from '../../../../shared/history';
import { createFakeApi, manualClock, settle } from '../fake-api';
import { recap, streamList } from './history-fixtures';

/** The recap's "Ad breaks" figure as the panel shows it, for the recap's ad-break figures. */
async function adBreaksShown(over: Partial<HistoryRecapFigures>): Promise<string | null | undefined> {
  const fake = createFakeApi();
  fake.ok('history:streams', streamList());
  const base = recap();
  fake.ok('history:recap', recap({ figures: { ...base.figures, ...over } }));
  const history = new HistoryState(fake.api, manualClock());
  render(StreamsView, { props: { history, copy: () => Promise.resolve(true), onUser: () => {} } });
  await history.load();
  await settle();
  await fireEvent.click(screen.getAllByRole('button', { name: /Open the recap of/ })[0]!);
  await settle();
  return screen.getByText('Ad breaks').nextElementSibling?.textContent;
}

it('says how many ad breaks Greenroom ran in the stream and their seconds', async () => {
  expect(await adBreaksShown({ adBreaks: 2, adBreakSeconds: 150 })).toBe('2 run from Greenroom, 150 seconds of ads');
});

it('says none were run, not "Not recorded", when the stream had no ad break', async () => {
  expect(await adBreaksShown({ adBreaks: 0, adBreakSeconds: 0 })).toBe('None run from Greenroom');
});
