import '@testing-library/svelte/vitest';
import { fireEvent, render, screen, within } from '@testing-library/svelte';
import { describe, expect, it, onTestFinished } from 'vitest';
import { fieldDetails } from '../../../../shared/field-refusal';
import SettingsPanel from '../../../../renderer/src/components/SettingsPanel.svelte';
import { AppState } from '../../../../renderer/src/lib/state/app.svelte';
import { createFakeApi, manualClock, manualFrames, settle } from '../fake-api';
import { settings, snapshot } from '../fixtures';

const SAVED = { enabled: true, channelId: null, chatroomId: null };

async function setup(liveSocket = SAVED) {
  const fake = createFakeApi();
  fake.ok('app:snapshot', snapshot({ settings: settings({ liveSocket }) }));
  const app = new AppState(fake.api, {
    scheduler: manualFrames().scheduler,
    clock: manualClock(),
    copy: () => Promise.resolve(true),
  });
  const disconnect = app.connect();
  await app.start();
  onTestFinished(disconnect);
  render(SettingsPanel, { props: { app, copy: () => Promise.resolve(true) } });
  const form = () => screen.getByRole('form', { name: "Kick's live chat connection" });
  return { fake, form, text: () => form().textContent.replace(/\s+/g, ' ') };
}

describe("Settings: Kick's live chat connection", () => {
  it('names the switch plainly and turns it off with settings:update', async () => {
    const { fake, form } = await setup();
    const toggle = within(form()).getByRole<HTMLInputElement>('checkbox', {
      name: /unofficial; webhooks stay the record/,
    });
    expect(toggle.checked).toBe(true);
    fake.ok('settings:update', settings({ liveSocket: { ...SAVED, enabled: false } }));
    await fireEvent.click(toggle);
    await settle();
    expect(fake.argsOf('settings:update')).toEqual([[{ liveSocket: { enabled: false } }]]);
  });

  it('explains where the two numbers are, and saves them together', async () => {
    const { fake, form, text } = await setup();
    expect(text()).toContain('How to find them');
    expect(text()).toContain('channel_…');
    fake.ok('settings:update', settings({ liveSocket: { enabled: true, channelId: 99, chatroomId: 4242 } }));
    await fireEvent.input(within(form()).getByLabelText('Channel id'), { target: { value: ' 99 ' } });
    await fireEvent.input(within(form()).getByLabelText('Chatroom id'), { target: { value: '4242' } });
    await fireEvent.click(within(form()).getByRole('button', { name: 'Save the numbers' }));
    await settle();
    expect(fake.argsOf('settings:update')).toEqual([[{ liveSocket: { channelId: 99, chatroomId: 4242 } }]]);
  });

  for (const bad of ['0', '-5', '1.5', '12a', '1000000000000', '1e3']) {
    it(`refuses "${bad}" at its field with the limit, and sends nothing`, async () => {
      const { fake, form } = await setup();
      const field = within(form()).getByLabelText('Channel id');
      await fireEvent.input(field, { target: { value: bad } });
      await fireEvent.input(within(form()).getByLabelText('Chatroom id'), { target: { value: '5' } });
      expect(field.getAttribute('aria-invalid')).toBe('true');
      expect(form().textContent).toContain('Must be a whole number from 1 to 999,999,999,999.');
      expect(within(form()).getByRole<HTMLButtonElement>('button', { name: 'Save the numbers' }).disabled).toBe(true);
      expect(fake.argsOf('settings:update')).toEqual([]);
    });
  }

  it("shows main's refusal beside the field it names", async () => {
    const { fake, form, text } = await setup();
    fake.handle('settings:update', () => ({
      ok: false,
      error: {
        code: 'InvalidArgument',
        message: 'liveSocket.chatroomId: not this channel',
        details: fieldDetails([{ field: 'liveSocket.chatroomId', reason: 'not this channel' }]),
      },
    }));
    await fireEvent.input(within(form()).getByLabelText('Channel id'), { target: { value: '1' } });
    await fireEvent.input(within(form()).getByLabelText('Chatroom id'), { target: { value: '2' } });
    await fireEvent.click(within(form()).getByRole('button', { name: 'Save the numbers' }));
    await settle();
    expect(within(form()).getByLabelText('Chatroom id').getAttribute('aria-invalid')).toBe('true');
    expect(text()).toContain('Chatroom id Not this channel.');
  });
});
