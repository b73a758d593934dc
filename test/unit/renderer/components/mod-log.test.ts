import '@testing-library/svelte/vitest';
import { fireEvent, render, screen, within } from '@testing-library/svelte';
import { describe, expect, it } from 'vitest';
import App from '../../../../renderer/src/App.svelte';
import type { AutomodNote, ModAction } from '../../../../shared/views';
import { createFakeApi, manualClock, manualFrames, settle } from '../fake-api';
import { account, ALL_SCOPES, modAction, snapshot } from '../fixtures';

const T0 = 1_700_000_000_000;
const note = (rule: AutomodNote['rule'], content: string): AutomodNote => ({ rule, reason: rule, content });

/** Newest first, as main's log reads once sorted: two automatic removals, a person's ban, a dry run. */
function storm(): ModAction[] {
  return [
    modAction({
      id: 'd1',
      kind: 'delete',
      atMs: T0 - 4000,
      targetUserId: 7,
      targetUsername: 'spammer',
      auto: note('blocked-term', 'FREE followers'),
    }),
    modAction({
      id: 't1',
      kind: 'timeout',
      minutes: 2,
      atMs: T0 - 3000,
      targetUserId: 8,
      targetUsername: 'repeater',
      auto: note('repeated-message', 'pls'),
    }),
    modAction({ id: 'b1', kind: 'ban', atMs: T0 - 2000, targetUserId: 9, targetUsername: 'troll' }),
    modAction({
      id: 'f1',
      kind: 'flag',
      atMs: T0 - 1000,
      targetUserId: 10,
      targetUsername: 'linker',
      auto: { ...note('link', 'x.shop'), wouldDo: 'delete' },
    }),
  ];
}

async function setup(log: ModAction[] = storm(), scopes = ALL_SCOPES) {
  const fake = createFakeApi();
  fake.ok('app:snapshot', snapshot({ account: account({ accountLabel: 'streamerbob', scopes }) }));
  fake.ok('mod:log', log);
  const clock = manualClock(T0);
  render(App, { props: { api: fake.api, deps: { scheduler: manualFrames().scheduler, clock } } });
  await settle();
  await fireEvent.click(screen.getByRole('tab', { name: 'Mod log' }));
  await settle();
  const region = () => screen.getByRole('region', { name: 'Mod log' });
  const rows = () =>
    within(region())
      .queryAllByRole('listitem')
      .map((li) => li.textContent ?? '');
  const pick = (label: string, value: string) =>
    fireEvent.change(within(region()).getByLabelText(label), { target: { value } });
  return { fake, clock, region, rows, pick };
}

describe('Mod log tab', () => {
  it('is a tab of its own, no longer under Activity', async () => {
    const { rows } = await setup();
    expect(rows()).toHaveLength(4);
    await fireEvent.click(screen.getByRole('tab', { name: 'Activity' }));
    expect(screen.queryByRole('region', { name: 'Mod log' })).toBeNull();
  });

  it("names another moderator's ban on Kick, which arrives live, and filters to moderators on Kick", async () => {
    const { fake, clock, rows, pick } = await setup();
    fake.emit(
      'mod:action',
      modAction({
        id: 'k1',
        kind: 'ban',
        atMs: T0,
        targetUserId: 11,
        targetUsername: 'raider',
        elsewhere: { moderator: 'mod_mia' },
      }),
    );
    // The log redraws at most twice a second.
    clock.advance(1000);
    await settle();
    expect(rows()[0]).toContain('on Kick by mod_mia');
    await pick('Who', 'kick');
    expect(rows()).toHaveLength(1);
    expect(rows()[0]).toContain('raider');
    await pick('Who', 'person');
    expect(rows().map((r) => r.match(/troll|raider/)?.[0])).toEqual(['troll']);
  });

  it('filters to auto-moderation, to a rule, to an action and to a chatter', async () => {
    const { region, rows, pick } = await setup();
    await pick('Who', 'automod');
    expect(rows().map((r) => r.match(/spammer|repeater|troll|linker/)?.[0])).toEqual(['linker', 'repeater', 'spammer']);
    expect(within(region()).getByRole('status').textContent).toContain('Showing 3 of 4 actions');
    await pick('Rule', 'blocked-term');
    expect(rows()).toHaveLength(1);
    expect(rows()[0]).toContain('Blocked term');
    expect(rows()[0]).toContain('FREE followers');
    await fireEvent.click(within(region()).getByRole('button', { name: 'Clear filters' }));
    await pick('Who', 'person');
    expect(rows()).toHaveLength(1);
    expect(rows()[0]).toContain('troll');
    expect(within(region()).getByLabelText<HTMLSelectElement>('Who').selectedOptions[0]?.textContent).toBe(
      'streamerbob (you)',
    );
    await fireEvent.click(within(region()).getByRole('button', { name: 'Clear filters' }));
    await pick('Action', 'flag');
    expect(rows()[0]).toContain('dry run: would delete');
    await pick('Action', 'any');
    await fireEvent.input(within(region()).getByLabelText('Chatter'), { target: { value: 'REP' } });
    expect(rows()).toHaveLength(1);
    expect(rows()[0]).toContain('repeater');
    await fireEvent.input(within(region()).getByLabelText('Chatter'), { target: { value: 'nobody' } });
    expect(within(region()).getByText('Nothing matches these filters.')).toBeTruthy();
  });

  it('lists what can be undone: the automatic timeout and the ban, never the delete or the dry run', async () => {
    const { region, rows } = await setup();
    await fireEvent.click(within(region()).getByLabelText('Can undo'));
    expect(rows().map((r) => r.match(/repeater|troll/)?.[0])).toEqual(['troll', 'repeater']);
    expect(
      within(region())
        .getAllByRole('button', { name: /^Undo/ })
        .map((b) => b.getAttribute('aria-label')),
    ).toEqual(['Undo ban of troll', 'Undo automod timeout of repeater']);
  });

  it("undoes a person's ban with an unban, and its Undo goes once the unban is in", async () => {
    const { fake, clock, region } = await setup();
    await fireEvent.click(within(region()).getByRole('button', { name: 'Undo ban of troll' }));
    await settle();
    expect(fake.argsOf('mod:unban')).toEqual([[{ userId: 9 }]]);
    expect(within(region()).getByText('Unbanned')).toBeTruthy();
    clock.advance(500);
    await settle();
    expect(within(region()).queryByRole('button', { name: 'Undo ban of troll' })).toBeNull();
  });

  it('undoes an automatic timeout through main', async () => {
    const { fake, region } = await setup();
    fake.ok('mod:undo-auto', []);
    await fireEvent.click(within(region()).getByRole('button', { name: 'Undo automod timeout of repeater' }));
    await settle();
    expect(fake.argsOf('mod:undo-auto')).toEqual([[{ actionId: 't1' }]]);
    expect(within(region()).getByText('Undone')).toBeTruthy();
  });

  it('offers no Undo without the moderation permission', async () => {
    const { region } = await setup(
      storm(),
      ALL_SCOPES.filter((s) => s !== 'moderation:ban'),
    );
    expect(within(region()).queryAllByRole('button', { name: /^Undo/ })).toHaveLength(0);
  });

  it('shows a pushed automatic action that matches the filter', async () => {
    const { fake, clock, rows, pick } = await setup();
    await pick('Rule', 'blocked-term');
    fake.emit(
      'mod:action',
      modAction({
        id: 'd2',
        kind: 'delete',
        atMs: T0 + 10,
        targetUsername: 'bot2',
        auto: note('blocked-term', 'free followers!!'),
      }),
    );
    fake.emit(
      'mod:action',
      modAction({ id: 'c1', kind: 'delete', atMs: T0 + 20, targetUsername: 'shouter', auto: note('caps', 'HEY') }),
    );
    await settle();
    clock.advance(500);
    await settle();
    expect(rows().map((r) => r.match(/bot2|spammer|shouter/)?.[0])).toEqual(['bot2', 'spammer']);
  });

  it('draws a hundred entries, then a hundred more on "Show more"', async () => {
    const many = Array.from({ length: 150 }, (_, i) => modAction({ id: `m${i}`, atMs: T0 - i * 1000, kind: 'delete' }));
    const { region, rows } = await setup(many);
    expect(rows()).toHaveLength(100);
    await fireEvent.click(within(region()).getByRole('button', { name: 'Show more (50 not shown)' }));
    expect(rows()).toHaveLength(150);
  });

  it('keeps its filters while another tab is open', async () => {
    const { region, rows, pick } = await setup();
    await pick('Who', 'automod');
    await fireEvent.click(screen.getByRole('tab', { name: 'Activity' }));
    await fireEvent.click(screen.getByRole('tab', { name: 'Mod log' }));
    expect(within(region()).getByLabelText<HTMLSelectElement>('Who').value).toBe('automod');
    expect(rows()).toHaveLength(3);
  });
});

describe('Mod log tab: a chatter Greenroom never saw', () => {
  it('names them by user id, opens their card, and words Undo with it', async () => {
    const { fake, region } = await setup([
      modAction({ id: 'x', kind: 'timeout', minutes: 10, atMs: T0, targetUserId: 4242, targetUsername: null }),
    ]);
    expect(within(region()).getByRole('button', { name: 'Undo timeout of user 4242' })).toBeTruthy();
    await fireEvent.click(within(region()).getByRole('button', { name: 'user 4242' }));
    await settle();
    expect(fake.argsOf('mod:user-card')).toEqual([[{ userId: 4242 }]]);
  });
});
