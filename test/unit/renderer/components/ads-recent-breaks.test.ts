import '@testing-library/svelte/vitest';
import { cleanup, render, screen } from '@testing-library/svelte';
import { afterEach, describe, expect, it } from 'vitest';
import AdsPanel from '../../../../renderer/src/components/AdsPanel.svelte';
import { ALLOWED } from '../../../../renderer/src/lib/access';
import { AdsState } from '../../../../renderer/src/lib/state/ads.svelte';
import { toastsContext, ToastsState } from '../../../../renderer/src/lib/state/toasts.svelte';
import { createFakeApi, manualClock } from '../fake-api';
import { adStatus } from '../fixtures';

const NOW = 1_700_000_000_000;

/** A past break as Kick's status lists it, with Kick's own codes. */
function pastBreak(id: string, status: string, source: string) {
  return {
    id,
    status,
    break_duration_seconds: 15,
    created_at: new Date(NOW - 3_600_000).toISOString(),
    source,
  };
}

async function showBreaks(breaks: ReturnType<typeof pastBreak>[]): Promise<HTMLElement[]> {
  const fake = createFakeApi();
  fake.ok('ads:status', adStatus({ ad_breaks: breaks }));
  const clock = manualClock(NOW);
  const ads = new AdsState(fake.api, clock, () => true);
  await ads.load();
  render(AdsPanel, { props: { ads, access: ALLOWED }, context: toastsContext(new ToastsState(clock)) });
  const list = screen.getByRole('heading', { name: 'Recent breaks' }).nextElementSibling as HTMLElement;
  return Array.from(list.querySelectorAll('li'));
}

const text = (el: HTMLElement) => (el.textContent ?? '').replace(/\s+/g, ' ').trim();

afterEach(cleanup);

describe('AdsPanel recent breaks', () => {
  it("says started, finished and who ran it instead of Kick's codes", async () => {
    const [started, finished] = await showBreaks([
      pastBreak('a', 'inserted', 'public_api'),
      pastBreak('b', 'completed', 'public_api'),
    ]);
    expect(text(started!)).toMatch(/· 15 s · started · run through the API \(Greenroom or another app\)$/);
    expect(text(finished!)).toMatch(/· 15 s · finished · run through the API/);
    for (const li of [started!, finished!]) {
      expect(text(li)).not.toMatch(/inserted|completed|public_api/);
      expect(li.querySelector('details')).toBeNull();
    }
  });

  it('keeps a code it does not know behind Details, never shown as if it were words', async () => {
    const [unknownStatus, unknownSource, inherited, empty] = await showBreaks([
      pastBreak('a', 'cancelled_by_kick', 'public_api'),
      pastBreak('b', 'inserted', 'dashboard'),
      // Names every object has must not pass as known codes.
      pastBreak('c', 'toString', '__proto__'),
      pastBreak('d', '', ''),
    ]);
    const summaryLine = (li: HTMLElement) => text(li).split('Details')[0]!.trim();

    expect(summaryLine(unknownStatus!)).toMatch(/· status not known · run through the API/);
    expect(summaryLine(unknownStatus!)).not.toContain('cancelled_by_kick');
    expect(unknownStatus!.querySelector('details')!.textContent).toContain("Kick's status: cancelled_by_kick");

    expect(summaryLine(unknownSource!)).toMatch(/· 15 s · started$/);
    expect(unknownSource!.querySelector('details')!.textContent).toContain('source: dashboard');

    expect(summaryLine(inherited!)).toMatch(/· 15 s · status not known$/);
    expect(summaryLine(inherited!)).not.toMatch(/toString|proto|function/);
    expect(inherited!.querySelector('details')!.textContent).toContain("Kick's status: toString; source: __proto__");

    expect(summaryLine(empty!)).toMatch(/· 15 s · status not known$/);
    expect(empty!.querySelector('details')!.textContent).toContain("Kick's status: (empty); source: (empty)");
  });
});
