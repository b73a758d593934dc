import '@testing-library/svelte/vitest';
import { fireEvent, render, screen } from '@testing-library/svelte';
import { describe, expect, it } from 'vitest';
import StreamInfo from '../../../../renderer/src/components/StreamInfo.svelte';
import { ALLOWED, type Access } from '../../../../renderer/src/lib/access';
import { StreamInfoState } from '../../../../renderer/src/lib/state/stream-info.svelte';
import { createFakeApi, manualClock, settle } from '../fake-api';
import { channel } from '../fixtures';

const SIGNED_OUT: Access = { allowed: false, signedOut: true, text: 'Sign in to change stream info.', detail: null };

/** Stream info with its title saved once, "Saved." showing. */
async function savedOnce() {
  const fake = createFakeApi();
  const stream = new StreamInfoState(fake.api, manualClock());
  await stream.load();
  const view = render(StreamInfo, { props: { stream, access: ALLOWED } });
  await fireEvent.input(screen.getByLabelText('Title'), { target: { value: 'New title' } });
  fake.ok('stream:update', channel({ stream_title: 'New title' }));
  await fireEvent.click(screen.getByRole('button', { name: 'Save' }));
  await settle();
  expect(screen.getByText('Saved.')).toBeTruthy();
  return { stream, view };
}

describe('"Saved." on Stream', () => {
  it('goes when the view loads again, as after a reconnect or an app restart', async () => {
    const { stream } = await savedOnce();
    await stream.load();
    await settle();
    expect(screen.queryByText('Saved.')).toBeNull();
  });

  it('goes at sign-out, never beside "Sign in to change stream info"', async () => {
    const { view } = await savedOnce();
    await view.rerender({ access: SIGNED_OUT });
    await settle();
    expect(screen.queryByText('Saved.')).toBeNull();
  });

  it('goes with the next edit', async () => {
    await savedOnce();
    await fireEvent.input(screen.getByLabelText('Title'), { target: { value: 'Newer title' } });
    expect(screen.queryByText('Saved.')).toBeNull();
  });
});
