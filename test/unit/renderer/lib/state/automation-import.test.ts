import { describe, expect, it } from 'vitest';
import { checkInvoke } from '../../../../../shared/validate-message';
import type { SettingsView } from '../../../../../shared/views';
import { AutomationState } from '../../../../../renderer/src/lib/state/automation.svelte';
import { createFakeApi } from '../../fake-api';
import { settings } from '../../fixtures';
import { exportFile, streamerSetup } from '../../../shared/automation-fixtures';

/** main's settings:update as far as the import needs it: the contract's own check, then the patch applied. */
function setup() {
  const fake = createFakeApi();
  let current: SettingsView = settings(streamerSetup());
  fake.handle('settings:update', (patch: unknown) => {
    const checked = checkInvoke('settings:update', [patch]);
    if (!checked.ok) {
      return checked;
    }
    current = { ...current, ...(checked.value.args as [Partial<SettingsView>])[0] };
    return { ok: true, value: current };
  });
  const automation = new AutomationState(fake.api);
  automation.apply(current);
  return { fake, automation, current: () => current };
}

const fileOf = (value: unknown) => new Blob([JSON.stringify(value)]);

describe('AutomationState: importing a file', () => {
  it('sends nothing until Replace, then only the halves the file holds', async () => {
    const { automation, fake, current } = setup();
    await automation.chooseImport(
      fileOf(exportFile(streamerSetup(), { automod: undefined, obsActions: undefined, chatBot: { timers: [] } })),
    );
    expect(automation.pendingImport?.plan.changes).toEqual(['Timers: 2 timers → 0 timers']);
    expect(fake.argsOf('settings:update')).toEqual([]);
    expect(await automation.confirmImport()).toBe(true);
    expect(Object.keys(fake.argsOf('settings:update')[0]![0] as object)).toEqual(['chatBot']);
    expect(current().chatBot.timers).toEqual([]);
    expect(current().chatBot.commands).toHaveLength(5);
    expect(current().automod.blockedTerms.terms).toHaveLength(12);
    expect(automation.pendingImport).toBeNull();
    expect(automation.message).toBe('Imported: 1 part of your setup replaced.');
  });

  it('Cancel changes nothing', async () => {
    const { automation, fake } = setup();
    await automation.chooseImport(fileOf(exportFile(streamerSetup(), { chatBot: { commands: [] } })));
    automation.cancelImport();
    expect(automation.pendingImport).toBeNull();
    expect(automation.message).toBe('Import cancelled. Nothing was changed.');
    expect(fake.argsOf('settings:update')).toEqual([]);
  });

  it.each([
    [
      'only __proto__ and constructor',
      '{"kind":"greenroom-automation","automod":{"__proto__":{},"constructor":{}},"chatBot":{"constructor":1}}',
    ],
    ['{}', '{}'],
    ['an array', '[]'],
    ['null', 'null'],
  ])('refuses a file holding %s at the import control, sending nothing', async (_name, text) => {
    const { automation, fake, current } = setup();
    await automation.chooseImport(new Blob([text]));
    expect(automation.importError?.text).toMatch(/not a Greenroom automation export|holds none of the rules/);
    expect(automation.pendingImport).toBeNull();
    expect(fake.argsOf('settings:update')).toEqual([]);
    expect(current().automod.blockedTerms.terms).toHaveLength(12);
  });

  it('refuses a 50 MB file by its size without reading it', async () => {
    const { automation, fake } = setup();
    const huge = {
      size: 50_000_000,
      arrayBuffer: () => Promise.reject(new Error('read')),
    } as unknown as Blob;
    await automation.chooseImport(huge);
    expect(automation.importError?.text).toBe(
      'This file is 50.0 MB; the limit is 2 MB. Choose a file exported from Greenroom’s Automation tab.',
    );
    expect(fake.argsOf('settings:update')).toEqual([]);
  });

  it('says so when the file holds the setup as it is, with no confirm', async () => {
    const { automation } = setup();
    await automation.chooseImport(fileOf(exportFile(streamerSetup())));
    expect(automation.pendingImport).toBeNull();
    expect(automation.message).toBe('Nothing to import: this file holds the setup you have now.');
  });

  it('warns that Replace drops unsaved edits of the half it replaces, and keeps the other half’s', async () => {
    const { automation } = setup();
    automation.automod!.dryRun = false;
    automation.chatBot!.timers.push({ message: 'draft', everySec: 600, minMessages: 0, enabled: true });
    await automation.chooseImport(fileOf(exportFile(streamerSetup(), { automod: {}, chatBot: { commands: [] } })));
    expect(automation.importDropsEdits).toEqual(['your unsaved edits to the commands, timers and replies']);
    expect(await automation.confirmImport()).toBe(true);
    expect(automation.automod!.dryRun).toBe(false);
    expect(automation.chatBot!.timers).toHaveLength(2);
  });

  it('shows the list again instead of saving when another window changed the setup meanwhile', async () => {
    const { automation, fake, current } = setup();
    await automation.chooseImport(fileOf(exportFile(streamerSetup(), { chatBot: { commands: [] } })));
    const changed = structuredClone(current());
    changed.chatBot.commands = changed.chatBot.commands.slice(0, 1);
    automation.apply(changed);
    expect(await automation.confirmImport()).toBe(false);
    expect(automation.pendingImport?.plan.changes).toEqual(['Commands: 1 command → 0 commands']);
    expect(automation.message).toMatch(/changed in another window/);
    expect(fake.argsOf('settings:update')).toEqual([]);
  });

  it('sends once while Replace waits for main, however often it is pressed', async () => {
    const { automation, fake } = setup();
    await automation.chooseImport(fileOf(exportFile(streamerSetup(), { chatBot: { commands: [] } })));
    const held = fake.hold('settings:update');
    const first = automation.confirmImport();
    expect(automation.saving).toBe('import');
    expect(automation.pendingImport).not.toBeNull();
    expect(await automation.confirmImport()).toBe(false);
    held.release({ ok: true, value: settings(streamerSetup()) });
    expect(await first).toBe(true);
    expect(fake.argsOf('settings:update')).toHaveLength(1);
    expect(automation.pendingImport).toBeNull();
  });

  it('words a dropped panel connection during Replace as the panel’s, not Kick’s', async () => {
    const { automation, fake } = setup();
    await automation.chooseImport(fileOf(exportFile(streamerSetup(), { chatBot: { commands: [] } })));
    fake.fail('settings:update', 'AppUnreachable', 'the connection to Greenroom was lost');
    expect(await automation.confirmImport()).toBe(false);
    expect(automation.importError?.text).toMatch(/^The panel lost its connection to Greenroom during the import/);
    expect(automation.importError?.text).not.toMatch(/Kick/);
    expect(automation.importError?.detail).toMatch(/AppUnreachable/);
  });
});
