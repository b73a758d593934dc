/**
 * How long the stream history keeps chat lines, in Settings (docs/settings.md#stream-history): the saved days, the
 * limit named at the field for any value outside it (and nothing sent), main's refusal beside the field, and that
 * counts per viewer are kept for good.
 */
import '@testing-library/svelte/vitest';
import { fireEvent, render, screen, within } from '@testing-library/svelte';
import { describe, expect, it } from 'vitest';
import App from '../../../../renderer/src/App.svelte';
import { fieldDetails } from '../../../../shared/field-refusal';
import { createFakeApi, manualClock, manualFrames, settle } from '../fake-api';
import { settings, snapshot } from '../fixtures';
import { fakeLink } from './app-not-running-fixtures';

async function setup(chatDays: number | undefined) {
  const fake = createFakeApi();
  const saved = settings(chatDays === undefined ? {} : { history: { chatDays } });
  fake.ok('app:snapshot', snapshot({ settings: saved }));
  fake.handle('settings:update', (patch) => ({
    ok: true,
    value: { ...saved, ...(patch as object) },
  }));
  const clock = manualClock();
  render(App, {
    props: { api: fake.api, deps: { scheduler: manualFrames().scheduler, clock, connection: fakeLink(clock) } },
  });
  await settle();
  await fireEvent.click(screen.getByRole('tab', { name: /^Settings/ }));
  await settle();
  return fake;
}

const panel = () => screen.getByRole('tabpanel');
const field = () => within(panel()).getByLabelText<HTMLInputElement>(/Keep chat lines for \(days\)/);
const save = () => within(panel()).getByRole<HTMLButtonElement>('button', { name: 'Save stream history' });
const LIMIT = 'Keep chat lines: a whole number of days from 1 to 36,500 (100 years).';

describe('the stream history in Settings', () => {
  it('shows the saved days, says counts per viewer are kept for good, and saves days inside the limit', async () => {
    const fake = await setup(90);
    expect(field().value).toBe('90');
    const hint = document.getElementById(field().getAttribute('aria-describedby')!)!;
    expect(hint.textContent).toMatch(/1 to 36,500/);
    expect(hint.textContent).toMatch(/Counts per viewer are kept for good/);
    await fireEvent.input(field(), { target: { value: '365' } });
    await fireEvent.click(save());
    await settle();
    expect(fake.argsOf('settings:update')).toEqual([[{ history: { chatDays: 365 } }]]);
    expect(panel().textContent).toContain('Stream history saved.');
    // Said beside the button as well: the line at the top is out of sight of this card.
    const form = save().closest('form')!;
    expect(within(form).getByRole('status').textContent).toBe('Stream history saved.');
    // Typing again takes it away: it answers that save, not the new value.
    await fireEvent.input(field(), { target: { value: '30' } });
    expect(within(form).queryByRole('status')).toBeNull();
  });

  it.each([
    ['0', '0'],
    ['a negative number', '-5'],
    ['one day more than 100 years', '36501'],
    ['a fraction', '1.5'],
    ['a huge number', '1e308'],
    ['nothing', ''],
  ])('refuses %s at the field, naming the limit, and sends nothing', async (_name, typed) => {
    const fake = await setup(90);
    await fireEvent.input(field(), { target: { value: typed } });
    expect(panel().textContent).toContain(LIMIT);
    expect(field().getAttribute('aria-invalid')).toBe('true');
    expect(save().disabled).toBe(true);
    await fireEvent.submit(save().closest('form')!);
    await settle();
    expect(fake.argsOf('settings:update')).toEqual([]);
  });

  it('takes the limits as they are: 1 and 36,500 days save', async () => {
    const fake = await setup(90);
    for (const days of ['1', '36500']) {
      await fireEvent.input(field(), { target: { value: days } });
      expect(panel().textContent).not.toContain(LIMIT);
      await fireEvent.click(save());
      await settle();
    }
    expect(fake.argsOf('settings:update')).toEqual([
      [{ history: { chatDays: 1 } }],
      [{ history: { chatDays: 36_500 } }],
    ]);
  });

  it("shows main's refusal beside the field, and what was saved stays", async () => {
    const fake = await setup(90);
    // Main's refusal as the router words it for an out-of-bounds value.
    const reason = 'keep chat lines from 1 to 36,500 days';
    fake.handle('settings:update', () => ({
      ok: false,
      error: {
        code: 'InvalidArgument',
        message: `settings:update: history.chatDays: chatDays: ${reason}`,
        details: fieldDetails([{ field: 'history.chatDays', reason }]),
      },
    }));
    await fireEvent.input(field(), { target: { value: '30' } });
    await fireEvent.click(save());
    await settle();
    const error = field().closest('form')!.querySelector('.field-error')!;
    expect(error.textContent).toBe('Keep chat lines from 1 to 36,500 days.');
    expect(panel().textContent).toMatch(/Not saved: how long chat lines are kept/);
    expect(field().value).toBe('30');
  });

  it('is not offered by an older main that has no history', async () => {
    await setup(undefined);
    expect(within(panel()).queryByLabelText(/Keep chat lines/)).toBeNull();
  });
});
