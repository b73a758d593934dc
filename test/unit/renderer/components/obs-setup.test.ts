/**
 * "Set up OBS for Kick" in the panel ([set up OBS for Kick](../../../../docs/obs.md#set-up-obs-for-kick)):
 * the scene picker lists OBS's scenes, the ticked overlays are sent, the outcome is one line, the
 * addresses to add by hand are listed without their key and copied whole, and a refusal is in OBS's words.
 */
import '@testing-library/svelte/vitest';
import { fireEvent, render, screen, within } from '@testing-library/svelte';
import { describe, expect, it } from 'vitest';
import type { ObsView } from '../../../../shared/obs';
import { OBS_VIEW_NOT_SET_UP } from '../../../../shared/obs';
import ObsSetup from '../../../../renderer/src/components/ObsSetup.svelte';
import { createFakeApi, settle } from '../fake-api';

const URL_ALERTS = 'http://127.0.0.1:4870/overlay/alerts?key=ovk_secret_overlay_key';
const URL_CHAT = 'http://127.0.0.1:4870/overlay/chat?key=ovk_secret_overlay_key';

function connected(browserSource: boolean | null = true): ObsView {
  return {
    ...OBS_VIEW_NOT_SET_UP,
    connection: { kind: 'connected', obsVersion: '29.0.2', websocketVersion: '5.1.0', since: 0 },
    scenes: { current: 'Live', scenes: ['Starting soon', 'Live', 'BRB'], sources: [] },
    browserSource,
  };
}

function setup(view: ObsView = connected()) {
  const fake = createFakeApi();
  const copied: string[] = [];
  const copy = (text: string) => {
    copied.push(text);
    return Promise.resolve(true);
  };
  render(ObsSetup, { props: { api: fake.api, view, copy } });
  const section = screen.getByRole('region', { name: 'Set up OBS for Kick' });
  const button = () => within(section).getByRole<HTMLButtonElement>('button', { name: 'Set up OBS for Kick' });
  const status = () => within(section).getByRole('status').textContent?.replace(/\s+/g, ' ').trim() ?? '';
  return { fake, copied, section, button, status };
}

describe('Set up OBS for Kick', () => {
  it('cannot run before OBS is connected, and says nothing of a browser source not known for it', () => {
    const { section, button } = setup({ ...OBS_VIEW_NOT_SET_UP, browserSource: false });
    expect(button().disabled).toBe(true);
    expect(section.textContent).not.toContain('no browser source');
  });

  it("sends OBS's current scene and the ticked overlays, then says what it did in one line", async () => {
    const { fake, button, status } = setup();
    fake.ok('obs:setup-for-kick', {
      streamSettings: 'written',
      added: ['Alert box'],
      skipped: [],
      updated: ['Chat box'],
      addByHand: [],
    });
    await fireEvent.click(button());
    await settle();
    expect(fake.argsOf('obs:setup-for-kick')).toEqual([[{ sceneName: 'Live', overlays: ['alerts', 'chat'] }]]);
    expect(status()).toBe(
      'OBS is set to stream to Kick. Added Alert box to Live. Updated Chat box in OBS to its new address.',
    );
  });

  it('sends the scene picked and only the overlays ticked; says what was already there', async () => {
    const { fake, section, button, status } = setup();
    fake.ok('obs:setup-for-kick', {
      streamSettings: 'already-set',
      added: ['Goal bar'],
      skipped: ['Alert box'],
      updated: [],
      addByHand: [],
    });
    const picker = within(section).getByRole('combobox', { name: 'Scene' });
    expect([...picker.querySelectorAll('option')].map((o) => o.textContent)).toEqual(['Starting soon', 'Live', 'BRB']);
    await fireEvent.change(picker, { target: { value: 'BRB' } });
    await fireEvent.click(within(section).getByRole('checkbox', { name: 'Chat box' }));
    await fireEvent.click(within(section).getByRole('checkbox', { name: 'Goal bar' }));
    await fireEvent.click(button());
    await settle();
    expect(fake.argsOf('obs:setup-for-kick')).toEqual([[{ sceneName: 'BRB', overlays: ['alerts', 'goal'] }]]);
    expect(status()).toBe('OBS was already set to stream to Kick. Added Goal bar to BRB. Alert box was already there.');
  });

  it('where OBS has no browser source, lists the addresses without their key and copies them whole', async () => {
    const { fake, copied, section, button, status } = setup(connected(false));
    expect(section.textContent).toContain('This OBS has no browser source');
    fake.ok('obs:setup-for-kick', {
      streamSettings: 'written',
      added: [],
      skipped: [],
      updated: [],
      addByHand: [
        { name: 'Alert box', url: URL_ALERTS },
        { name: 'Chat box', url: URL_CHAT },
      ],
    });
    await fireEvent.click(button());
    await settle();
    // Why Sources → + → Browser is missing from this OBS, and the two ways that work.
    expect(status()).toContain('This OBS was built without the browser source, as some Linux packages are');
    expect(status()).toContain('the official OBS from obsproject.com has it');
    expect(status()).toMatch(/Install OBS with the browser source .* or open each address below in a browser/);
    expect(status()).not.toContain('Sources → + → Browser');
    const list = within(section).getByRole('list', { name: 'Overlays to add by hand' });
    // One line that scrolls in a dock, never broken mid-word: a read-only field, without the key.
    const field = within(list).getByRole<HTMLInputElement>('textbox', { name: 'Alert box address (key hidden)' });
    expect(field.readOnly).toBe(true);
    expect(field.value).toBe('http://127.0.0.1:4870/overlay/alerts?key=…');
    expect(section.innerHTML).not.toContain('ovk_secret_overlay_key');
    await fireEvent.click(within(list).getByRole('button', { name: 'Copy the Chat box address' }));
    await settle();
    expect(copied).toEqual([URL_CHAT]);
    expect(status()).toContain('Chat box: address copied.');
  });

  it("says a refusal in OBS's own words, with nothing shown as done", async () => {
    const { fake, section, button, status } = setup();
    fake.fail(
      'obs:setup-for-kick',
      'ObsRequestFailed',
      'OBS: CreateInput failed (605): Your specified input kind is not supported by OBS.',
    );
    await fireEvent.click(button());
    await settle();
    expect(within(section).getByRole('alert').textContent).toContain(
      'OBS said: CreateInput failed (605): Your specified input kind is not supported by OBS.',
    );
    expect(status()).toBe('');
  });

  it('names the permission to allow when the sign-in cannot read the stream key', async () => {
    const { fake, section, button } = setup();
    fake.handle('obs:setup-for-kick', () => ({
      ok: false,
      error: {
        code: 'MissingScope',
        message: 'reading the stream key needs streamkey:read',
        details: { scopes: ['streamkey:read'] },
      },
    }));
    await fireEvent.click(button());
    await settle();
    expect(within(section).getByRole('alert').textContent).toContain('sign in again and allow Greenroom to');
    expect(within(section).getByRole('alert').textContent).toContain('stream key');
  });
});
