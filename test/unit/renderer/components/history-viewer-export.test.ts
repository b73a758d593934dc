/**
 * One viewer's export on the user card's history (docs/history.md#one-viewers-export): main writes the file, the
 * card saves it under main's name; a failure says why, saves nothing, and stays on the viewer it happened to.
 */
import '@testing-library/svelte/vitest';
import { fireEvent, render, screen, within } from '@testing-library/svelte';
import { afterEach, describe, expect, it, vi } from 'vitest';
import App from '../../../../renderer/src/App.svelte';
import ViewerStory from '../../../../renderer/src/components/history/ViewerStory.svelte';
import { HistoryState } from '../../../../renderer/src/lib/state/history.svelte';
import { createFakeApi, manualClock, manualFrames, settle } from '../fake-api';
import { message } from '../fixtures';
import { START, story, streamList } from './history-fixtures';

const CSV = { fileName: 'greenroom-viewer-troll-42-2026-11-20-1800.csv', mimeType: 'text/csv', text: 'section\r\n' };

/** What the card saved: each download's file name and text. */
function downloads() {
  const blobs: Blob[] = [];
  const names: string[] = [];
  vi.spyOn(URL, 'createObjectURL').mockImplementation((b) => (blobs.push(b as Blob), 'blob:x'));
  vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
    names.push(this.download);
  });
  return { blobs, names };
}

async function card(userId = 42) {
  const fake = createFakeApi();
  fake.ok('history:viewer', story({ userId }));
  const history = new HistoryState(fake.api, manualClock());
  const view = render(ViewerStory, { props: { history, userId } });
  await settle();
  return { fake, history, view };
}

afterEach(() => vi.restoreAllMocks());

describe("a viewer's export on the card", () => {
  it('saves the file main wrote under main’s name, and says where', async () => {
    const saved = downloads();
    const { fake } = await card();
    fake.ok('history:export-viewer', CSV);
    const group = screen.getByRole('group', { name: "Export this viewer's history" });
    expect(group.textContent).toContain('For a ban appeal');
    await fireEvent.click(within(group).getByRole('button', { name: 'Export CSV' }));
    await settle();
    expect(fake.argsOf('history:export-viewer')).toEqual([[{ userId: 42, format: 'csv' }]]);
    expect(saved.names).toEqual([CSV.fileName]);
    expect(await saved.blobs[0]!.text()).toBe('section\r\n');
    expect(saved.blobs[0]!.type).toBe('text/csv');
    expect(screen.getByText(`Saved as ${CSV.fileName}.`)).toBeTruthy();

    fake.ok('history:export-viewer', { fileName: 'v.json', mimeType: 'application/json', text: '{}' });
    await fireEvent.click(within(group).getByRole('button', { name: 'Export JSON' }));
    await settle();
    expect(fake.argsOf('history:export-viewer').at(-1)).toEqual([{ userId: 42, format: 'json' }]);
    expect(saved.names).toEqual([CSV.fileName, 'v.json']);
  });

  it('says when the file holds only the newest chat lines', async () => {
    const saved = downloads();
    const { fake } = await card();
    const notice = 'It holds their newest 100,000 of 1,000,000 chat lines.';
    fake.ok('history:export-viewer', { ...CSV, notice });
    await fireEvent.click(screen.getByRole('button', { name: 'Export CSV' }));
    await settle();
    expect(saved.names).toEqual([CSV.fileName]);
    expect(screen.getByRole('status').textContent?.replace(/\s+/g, ' ').trim()).toBe(
      `Saved as ${CSV.fileName}. ${notice}`,
    );
  });

  it('a failed export says why in plain words and saves nothing', async () => {
    const saved = downloads();
    const { fake } = await card();
    fake.fail('history:export-viewer', 'Internal', 'disk full');
    await fireEvent.click(screen.getByRole('button', { name: 'Export CSV' }));
    await settle();
    expect(saved.names).toEqual([]);
    expect(screen.getByRole('alert').textContent).toContain('Something went wrong inside Greenroom');
    expect(screen.queryByText(/^Saved as/)).toBeNull();
  });

  it('waits for one export at a time, saying it writes', async () => {
    downloads();
    const { fake } = await card();
    const held = fake.hold('history:export-viewer');
    await fireEvent.click(screen.getByRole('button', { name: 'Export CSV' }));
    await settle();
    expect(screen.getByText('Writing the export…')).toBeTruthy();
    expect(screen.getByRole<HTMLButtonElement>('button', { name: 'Export JSON' }).disabled).toBe(true);
    held.release({ ok: true, value: CSV });
    await settle();
    expect(screen.getByRole<HTMLButtonElement>('button', { name: 'Export JSON' }).disabled).toBe(false);
  });

  it('a card switched to another viewer while the export was written saves nothing for the old one', async () => {
    const saved = downloads();
    const { fake, view } = await card(42);
    const held = fake.hold('history:export-viewer');
    await fireEvent.click(screen.getByRole('button', { name: 'Export CSV' }));
    fake.ok('history:viewer', story({ userId: 7, username: 'other' }));
    await view.rerender({ userId: 7 });
    await settle();
    held.release({ ok: true, value: CSV });
    await settle();
    expect(saved.names).toEqual([]);
    expect(screen.queryByText(/^Saved as/)).toBeNull();
  });

  it('is not offered for a viewer the history never saw', async () => {
    const fake = createFakeApi();
    fake.ok('history:viewer', null);
    render(ViewerStory, { props: { history: new HistoryState(fake.api, manualClock()), userId: 9 } });
    await settle();
    expect(screen.queryByRole('button', { name: 'Export CSV' })).toBeNull();
  });

  it('is on the user card in the whole panel', async () => {
    downloads();
    const fake = createFakeApi();
    const frames = manualFrames();
    fake.ok('history:streams', streamList());
    fake.ok('history:viewer', story());
    fake.ok('history:export-viewer', CSV);
    render(App, {
      props: { api: fake.api, view: 'chat', deps: { scheduler: frames.scheduler, clock: manualClock(START) } },
    });
    await settle();
    fake.emit('kick:event', { kind: 'chat', message: message({ messageId: 'm1', userId: 42, username: 'troll' }) });
    frames.run();
    await settle();
    const row = document.querySelector<HTMLElement>('[data-message-id="m1"]')!;
    await fireEvent.click(within(row).getByRole('button', { name: 'troll' }));
    await settle();
    const dialog = screen.getByRole('dialog', { name: 'troll' });
    await fireEvent.click(within(dialog).getByRole('button', { name: 'Export JSON' }));
    await settle();
    expect(fake.argsOf('history:export-viewer')).toEqual([[{ userId: 42, format: 'json' }]]);
  });
});
