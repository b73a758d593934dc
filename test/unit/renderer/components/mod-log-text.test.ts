import '@testing-library/svelte/vitest';
import { fireEvent, render, screen, within } from '@testing-library/svelte';
import { describe, expect, it } from 'vitest';
import App from '../../../../renderer/src/App.svelte';
import type { ModAction } from '../../../../shared/views';
import { createFakeApi, manualClock, manualFrames, settle } from '../fake-api';
import { account, ALL_SCOPES, modAction, snapshot } from '../fixtures';

const T0 = 1_700_000_000_000;

async function setup(log: ModAction[]) {
  const fake = createFakeApi();
  fake.ok('app:snapshot', snapshot({ account: account({ accountLabel: 'streamerbob', scopes: ALL_SCOPES }) }));
  fake.ok('mod:log', log);
  render(App, { props: { api: fake.api, deps: { scheduler: manualFrames().scheduler, clock: manualClock(T0) } } });
  await settle();
  await fireEvent.click(screen.getByRole('tab', { name: 'Mod log' }));
  await settle();
  return () => screen.getByRole('region', { name: 'Mod log' });
}

const removal = (content: string): ModAction =>
  modAction({
    id: 'd1',
    kind: 'delete',
    atMs: T0 - 1000,
    targetUserId: 7,
    targetUsername: 'spammer',
    auto: { rule: 'blocked-term', reason: 'blocked-term', content },
  });

describe('Mod log text', () => {
  it('quotes a removed message with emotes by name, never as Kick’s markup', async () => {
    const region = await setup([removal('[emote:39261:kkHuh] hydrate streamer [emote:1:PogU]')]);
    const quote = region().querySelector('q')?.textContent ?? '';
    expect(quote).toBe('kkHuh hydrate streamer PogU');
    expect(region().textContent).not.toContain('[emote:');
  });

  it('counts a filtered log with the noun in the form its total takes', async () => {
    const region = await setup([removal('free followers')]);
    await fireEvent.change(within(region()).getByLabelText('Who'), { target: { value: 'automod' } });
    expect(within(region()).getByRole('status').textContent?.trim()).toBe('Showing 1 of 1 action');
  });
});
