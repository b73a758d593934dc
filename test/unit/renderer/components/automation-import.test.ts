import '@testing-library/svelte/vitest';
import { fireEvent, render, screen, within } from '@testing-library/svelte';
import { describe, expect, it, onTestFinished } from 'vitest';
import AutomationPanel from '../../../../renderer/src/components/AutomationPanel.svelte';
import { AppState } from '../../../../renderer/src/lib/state/app.svelte';
import { checkInvoke } from '../../../../shared/validate-message';
import type { SettingsView } from '../../../../shared/views';
import { createFakeApi, manualClock, manualFrames, settle } from '../fake-api';
import { settings, snapshot } from '../fixtures';
import { exportFile, streamerSetup } from '../../shared/automation-fixtures';

/** The Automation tab over the real contract: settings:update is checked by the contract's own validator. */
async function setup() {
  const fake = createFakeApi();
  let current: SettingsView = settings(streamerSetup());
  fake.ok('app:snapshot', snapshot({ settings: current }));
  fake.ok('settings:get', current);
  fake.handle('settings:update', (patch: unknown) => {
    const checked = checkInvoke('settings:update', [patch]);
    if (!checked.ok) {
      return checked;
    }
    current = { ...current, ...(checked.value.args as [Partial<SettingsView>])[0] };
    return { ok: true, value: current };
  });
  const app = new AppState(fake.api, { scheduler: manualFrames().scheduler, clock: manualClock() });
  onTestFinished(app.connect());
  await app.start();
  render(AutomationPanel, { props: { app } });
  await settle();
  return { fake, current: () => current };
}

/** Chooses `file` in the Import control, as the browser's file picker does. */
async function choose(file: File): Promise<void> {
  const input = screen.getByLabelText<HTMLInputElement>('Import a file');
  Object.defineProperty(input, 'files', { value: [file], configurable: true });
  await fireEvent.change(input);
  await settle();
  await settle();
}

const json = (value: unknown) => new File([JSON.stringify(value)], 'greenroom-automation.json');

describe('AutomationPanel: import', () => {
  it('refuses a file of only __proto__ and constructor at the import control; nothing is replaced', async () => {
    const { fake, current } = await setup();
    await choose(
      new File(
        ['{"kind":"greenroom-automation","automod":{"__proto__":{},"constructor":{}},"chatBot":{"__proto__":{}}}'],
        'a.json',
      ),
    );
    expect(fake.argsOf('settings:update')).toEqual([]);
    expect(current().automod.blockedTerms.terms).toHaveLength(12);
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(screen.getByRole('alert').textContent).toMatch(
      /holds none of the rules, commands, timers, replies or OBS actions/,
    );
    expect(screen.getByLabelText('Import a file').getAttribute('aria-invalid')).toBe('true');
    // The internal names stay behind Details.
    expect(screen.getByRole('alert').textContent).not.toMatch(/__proto__/);
    await fireEvent.click(screen.getByRole('button', { name: 'Details' }));
    expect(screen.getByRole('alert').textContent).toMatch(/automod\."__proto__"/);
  });

  it('shows what a file replaces and its risks, and saves only on Replace', async () => {
    const { fake, current } = await setup();
    const file = exportFile(streamerSetup(), {
      automod: {
        dryRun: false,
        blockedTerms: {
          terms: [
            { pattern: '(\\w)\\1{9}', kind: 'regex' },
            { pattern: 'free followers', kind: 'plain' },
          ],
          action: { kind: 'ban' },
        },
      },
      chatBot: { commands: [{ name: 'say', reply: 'Chat says: {args}', sendAs: 'user' }] },
    });
    await choose(json(file));
    const dialog = screen.getByRole('dialog', { name: 'Replace your automation setup?' });
    const replaces = within(dialog).getByRole('list', { name: 'Replaces' });
    expect(replaces.textContent).toMatch(/Blocked terms: 12 terms, on, delete → 1 term, on, ban/);
    expect(replaces.textContent).toMatch(/Commands: 5 commands → 1 command/);
    expect(dialog.textContent).toMatch(/Not in this file, kept as they are: .*Timers/);
    const risks = within(dialog).getByRole('group', { name: 'Check before replacing' });
    expect(risks.textContent).toMatch(/Blocked terms bans viewers on Kick for real \(dry run is off\)/);
    expect(risks.textContent).toMatch(/!say posts from your account with text a viewer chose \(\{args\}\)/);
    expect(risks.textContent).toMatch(/Left out: The regular expression \(\\w\)\\1\{9\} is refused/);
    expect(fake.argsOf('settings:update')).toEqual([]);

    await fireEvent.click(within(dialog).getByRole('button', { name: 'Replace' }));
    await settle();
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(current().automod.blockedTerms.terms).toEqual([{ pattern: 'free followers', kind: 'plain' }]);
    expect(current().chatBot.timers).toHaveLength(2);
    expect(screen.getByRole('status').textContent).toMatch(
      /^Imported: 3 parts of your setup replaced\. 1 regular expression the safety check refuses left out\.$/,
    );
  });

  it('Cancel and Esc close the confirm and change nothing', async () => {
    const { fake } = await setup();
    await choose(json(exportFile(streamerSetup(), { chatBot: { commands: [] } })));
    await fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    await choose(json(exportFile(streamerSetup(), { chatBot: { commands: [] } })));
    await fireEvent.keyDown(screen.getByRole('dialog'), { key: 'Escape' });
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(screen.getByText('Import cancelled. Nothing was changed.')).toBeTruthy();
    expect(fake.argsOf('settings:update')).toEqual([]);
  });

  it.each([
    [new File([new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0xff, 0xd8, 0x00])], 'logo.png'), /not a text file/],
    [new File([new Uint8Array([0xff, 0xfe, 0x7b, 0x00])], 'utf16.json'), /saved as UTF-16/],
    [new File(['{"kind":'], 'cut.json'), /not JSON/],
    [
      json({ kind: 'greenroom-automation', chatBot: { timers: 'every hour' } }),
      /^Timers in this file: not in the form/,
    ],
  ])('refuses %s with a plain reason at the import control', async (file, reason) => {
    const { fake } = await setup();
    await choose(file);
    expect(screen.getByRole('alert').textContent).toMatch(reason);
    expect(fake.argsOf('settings:update')).toEqual([]);
  });

  it('names term kinds one way: the editor, its picker and a refused file use the same words', async () => {
    const { current } = await setup();
    // Imported terms of every kind are listed by the picker's own names, never the file's words.
    const file = exportFile(streamerSetup(), {
      automod: {
        blockedTerms: {
          terms: [
            { pattern: 'free followers', kind: 'plain' },
            { pattern: 'spam*bot', kind: 'wildcard' },
            { pattern: 'buy (cheap|free) views', kind: 'regex' },
          ],
        },
      },
    });
    await choose(json(file));
    await fireEvent.click(screen.getByRole('button', { name: 'Replace' }));
    await settle();
    const picker = [...screen.getByLabelText<HTMLSelectElement>('Kind').options].map((o) => o.textContent);
    const listed = within(screen.getByRole('list', { name: 'Blocked terms' }))
      .getAllByRole('listitem')
      .map((li) => li.querySelector('.hint')?.textContent);
    expect(listed).toEqual(['Words', 'Wildcard *', 'Regular expression']);
    expect(listed.every((label) => picker.includes(label ?? ''))).toBe(true);

    // A file with a kind Greenroom does not know is refused in those words, with the file's word for each.
    const bad = exportFile(streamerSetup(), { automod: { blockedTerms: { terms: [{ pattern: 'x', kind: 'glob' }] } } });
    await choose(json(bad));
    expect(screen.getByRole('alert').textContent).toContain(
      'Blocked terms in this file, number 1: the kind must be Words ("plain"), Wildcard * ("wildcard") or ' +
        'Regular expression ("regex"). Nothing was changed.',
    );
    expect(current().automod.blockedTerms.terms).toHaveLength(3);
  });
});
