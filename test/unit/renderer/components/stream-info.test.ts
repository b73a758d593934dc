import '@testing-library/svelte/vitest';
import { fireEvent, render, screen } from '@testing-library/svelte';
import { ALLOWED } from '../../../../renderer/src/lib/access';
import { describe, expect, it } from 'vitest';
import StreamInfo from '../../../../renderer/src/components/StreamInfo.svelte';
import { StreamInfoState } from '../../../../renderer/src/lib/state/stream-info.svelte';
import { createFakeApi, manualClock, settle } from '../fake-api';
import { channel } from '../fixtures';

async function setup() {
  const fake = createFakeApi();
  const clock = manualClock();
  const stream = new StreamInfoState(fake.api, clock);
  await stream.load();
  render(StreamInfo, { props: { stream, access: ALLOWED } });
  return { fake, clock, stream };
}

describe('StreamInfo', () => {
  it('shows live status and viewers', async () => {
    await setup();
    expect(screen.getByText('● LIVE')).toBeTruthy();
    expect(screen.getByText('321 viewers')).toBeTruthy();
  });

  it('autocompletes categories after a pause in typing and saves only the changes', async () => {
    const { fake, clock } = await setup();
    fake.ok('stream:search-categories', [
      { id: 15, name: 'Minecraft', tags: [], thumbnail: '' },
      { id: 16, name: 'Minesweeper', tags: [], thumbnail: '' },
    ]);
    const search = screen.getByRole('combobox');
    await fireEvent.input(search, { target: { value: 'Mi' } });
    await fireEvent.input(search, { target: { value: 'Mine' } });
    expect(fake.argsOf('stream:search-categories')).toHaveLength(0);
    clock.advance(300);
    await settle();
    expect(fake.argsOf('stream:search-categories')).toEqual([[{ query: 'Mine' }]]);
    await fireEvent.keyDown(search, { key: 'ArrowDown' });
    await fireEvent.keyDown(search, { key: 'ArrowDown' });
    await fireEvent.keyDown(search, { key: 'Enter' });
    expect(screen.getByText('Minesweeper')).toBeTruthy();

    await fireEvent.input(screen.getByLabelText('Title'), { target: { value: 'New title' } });
    const tagInput = screen.getByLabelText(/^Tags/);
    await fireEvent.input(tagInput, { target: { value: 'speedrun' } });
    await fireEvent.keyDown(tagInput, { key: 'Enter' });
    await fireEvent.click(screen.getByRole('button', { name: 'Remove tag chill' }));

    fake.ok('stream:update', channel({ stream_title: 'New title' }));
    await fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await settle();
    expect(fake.argsOf('stream:update')).toEqual([[{ title: 'New title', categoryId: 16, tags: ['speedrun'] }]]);
  });

  it('limits tags to 10 and refuses duplicates', async () => {
    const { stream } = await setup();
    const tagInput = screen.getByLabelText(/^Tags/);
    await fireEvent.input(tagInput, { target: { value: 'Chill' } });
    await fireEvent.keyDown(tagInput, { key: 'Enter' });
    expect(screen.getByText(/already there/)).toBeTruthy();
    for (let i = 0; i < 9; i++) {
      stream.addTag(`t${i}`);
    }
    await settle();
    expect(screen.getByText('10/10')).toBeTruthy();
    expect(screen.getByLabelText<HTMLInputElement>(/^Tags/).disabled).toBe(true);
  });

  it('shows a save error', async () => {
    const { fake } = await setup();
    fake.fail('stream:update', 'Validation', 'tags: at most 10');
    await fireEvent.input(screen.getByLabelText('Title'), { target: { value: 'x' } });
    await fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await settle();
    expect(screen.getByRole('alert').textContent).toContain('tags: at most 10');
  });

  it('counts the title against its limit as the streamer types, and refuses a longer one at the field', async () => {
    const { fake } = await setup();
    const title = screen.getByLabelText<HTMLInputElement>('Title');
    const count = () => document.getElementById(title.getAttribute('aria-describedby')!.split(' ')[0]!)?.textContent;
    await fireEvent.input(title, { target: { value: 'Speedrun night' } });
    expect(count()).toBe('14/200 characters');
    // Emoji count as one character each, as Kick's limit counts them.
    await fireEvent.input(title, { target: { value: '🎮'.repeat(200) } });
    expect(count()).toBe('200/200 characters');
    expect(title.getAttribute('aria-invalid')).toBe('false');

    const pasted = 'a long pasted title '.repeat(15);
    await fireEvent.input(title, { target: { value: pasted } });
    expect(title.value).toBe(pasted);
    expect(count()).toBe('299/200 characters');
    const error = screen.getByRole('alert');
    expect(error.textContent).toBe('Title: at most 200 characters (now 299).');
    expect(title.getAttribute('aria-describedby')).toContain(error.id);
    expect(title.getAttribute('aria-invalid')).toBe('true');
    expect(screen.getByRole<HTMLButtonElement>('button', { name: 'Save' }).disabled).toBe(true);
    await fireEvent.submit(title.form!);
    await settle();
    expect(fake.argsOf('stream:update')).toEqual([]);
  });
});
