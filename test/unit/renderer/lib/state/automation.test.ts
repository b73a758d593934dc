import { describe, expect, it } from 'vitest';
import type { SettingsView } from '../../../../../shared/views';
import { AutomationState } from '../../../../../renderer/src/lib/state/automation.svelte';
import { createFakeApi } from '../../fake-api';
import { settings } from '../../fixtures';

/** main's settings:update, as far as these tests need it: the patch applied to the view. */
function setup() {
  const fake = createFakeApi();
  let current = settings();
  fake.handle('settings:update', (patch: Partial<SettingsView>) => {
    current = { ...current, ...patch };
    return { ok: true, value: current };
  });
  const automation = new AutomationState(fake.api);
  automation.apply(current);
  return { fake, automation, current: () => current };
}

describe('AutomationState', () => {
  it('keeps edits as a draft until saved, and a clean draft follows main', async () => {
    const { automation, current } = setup();
    expect(automation.automodDirty).toBe(false);
    automation.automod!.enabled = true;
    expect(automation.automodDirty).toBe(true);
    // Main changes something else: the unsaved edit stays.
    automation.apply({ ...current(), chatBot: { ...current().chatBot, sendRepliesAs: 'user' } });
    expect(automation.automod!.enabled).toBe(true);
    expect(automation.chatBot!.sendRepliesAs).toBe('user');
    expect(await automation.saveAutomod()).toBe(true);
    expect(current().automod.enabled).toBe(true);
    expect(automation.automodDirty).toBe(false);
    // Said beside the form's Save button, not at the top of the tab.
    expect(automation.message).toBeNull();
  });

  it('pauses without saving a half-edited bot, and the draft keeps its edit', async () => {
    const { automation, current } = setup();
    automation.chatBot!.timers.push({ message: 'hi', everySec: 600, minMessages: 0, enabled: true });
    expect(await automation.setPaused(true)).toBe(true);
    expect(current().chatBot).toMatchObject({ paused: true, timers: [] });
    expect(automation.paused).toBe(true);
    expect(automation.chatBot!.timers).toHaveLength(1);
    expect(automation.chatBot!.paused).toBe(true);
  });

  it('exports the saved settings as a file the import reads back', async () => {
    const { automation, fake, current } = setup();
    const text = automation.exportText()!;
    const file = JSON.parse(text) as { kind: string; version: number; automod: { enabled: boolean } };
    expect(file).toMatchObject({ kind: 'greenroom-automation', version: 1 });

    file.automod.enabled = true;
    await automation.chooseImport(new Blob([JSON.stringify(file)]));
    expect(automation.pendingImport?.plan.changes).toEqual(['Auto-moderation: off → on']);
    expect(fake.argsOf('settings:update')).toHaveLength(0);
    expect(await automation.confirmImport()).toBe(true);
    expect(current().automod.enabled).toBe(true);
    expect(automation.automod!.enabled).toBe(true);
  });

  it('shows main’s refusal, naming the field, and keeps the draft', async () => {
    const { automation, fake } = setup();
    fake.fail('settings:update', 'InvalidArgument', 'settings:update: automod.blockedTerms.terms.0.pattern: refused');
    automation.automod!.blockedTerms.terms.push({ pattern: '(a+)+', kind: 'regex' });
    expect(await automation.saveAutomod()).toBe(false);
    expect(automation.error?.text).toMatch(/terms\.0\.pattern/);
    expect(automation.automodDirty).toBe(true);
  });
});
