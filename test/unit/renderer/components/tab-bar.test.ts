import '@testing-library/svelte/vitest';
import { fireEvent, render, screen, within } from '@testing-library/svelte';
import { afterEach, describe, expect, it } from 'vitest';
import TabBar from '../../../../renderer/src/components/TabBar.svelte';
import { settle } from '../fake-api';
import { PANEL_TABS, restoreLayout, stubTabLayout } from './tab-fixtures';

type Id = (typeof PANEL_TABS)[number]['id'];

/** The bar as App uses it: selecting a tab shows it. */
function setup(width: number, selected: Id = 'chat') {
  stubTabLayout(width);
  const picked: Id[] = [];
  const r = render(TabBar<Id>, {
    props: {
      label: 'Sections',
      idPrefix: 'main',
      tabs: PANEL_TABS,
      selected,
      onSelect: (id: Id) => {
        picked.push(id);
        void r.rerender({ selected: id });
      },
    },
  });
  const row = () => screen.getAllByRole('tab').map((t) => t.textContent?.trim().replace(/\s+\d+$/, ''));
  const more = () => screen.getByRole('button', { name: /^More sections/ });
  return { picked, row, more };
}

afterEach(restoreLayout);

describe('TabBar: tabs that fit', () => {
  it('shows every tab and no "More" where all fit', async () => {
    const { row } = setup(2000);
    await settle();
    expect(row()).toHaveLength(PANEL_TABS.length);
    expect(screen.queryByRole('button', { name: /^More/ })).toBeNull();
  });

  it('in a 340 px dock shows what fits and the rest under "More ▾", saying what waits there', async () => {
    const { row, more } = setup(340);
    await settle();
    expect(row()).toEqual(['Chat', 'Activity', 'Mod log']);
    expect(more().textContent).toContain('More ▾');
    // Health's two problems are not hidden away: the button has a dot and names them.
    expect(more().getAttribute('aria-label')).toBe('More sections: 2 connection problems');
    expect(more().getAttribute('aria-haspopup')).toBe('menu');
    expect(more().getAttribute('aria-expanded')).toBe('false');
    await fireEvent.click(more());
    const menu = screen.getByRole('menu', { name: 'More sections' });
    const items = within(menu)
      .getAllByRole('menuitem')
      .map((i) => i.textContent?.trim().replace(/\s+\d+$/, ''));
    expect(items).toEqual(PANEL_TABS.slice(3).map((t) => t.label));
    expect(more().getAttribute('aria-expanded')).toBe('true');
  });

  it('keeps the selected tab in the row when it would be under "More"', async () => {
    const { row } = setup(340, 'settings');
    await settle();
    expect(row()).toEqual(['Chat', 'Activity', 'Settings']);
    expect(screen.getByRole('tab', { name: 'Settings' }).getAttribute('aria-selected')).toBe('true');
  });

  it('picks a tab from the menu with a click: it shows in the row, selected, and the menu closes', async () => {
    const { row, more, picked } = setup(340);
    await settle();
    await fireEvent.click(more());
    await fireEvent.click(screen.getByRole('menuitem', { name: 'Overlays' }));
    await settle();
    expect(picked).toEqual(['overlays']);
    expect(row()).toContain('Overlays');
    expect(screen.queryByRole('menu')).toBeNull();
  });
});

describe('TabBar: badges under "More"', () => {
  it('never adds unrelated counts: a dot on the button, and each waiting thing named', async () => {
    stubTabLayout(340);
    const tabs = PANEL_TABS.map((t) =>
      t.id === 'redemptions' ? { ...t, badge: 3, badgeText: '3 redemptions waiting' } : t,
    );
    render(TabBar<Id>, { props: { label: 'Sections', idPrefix: 'main', tabs, selected: 'chat', onSelect: () => {} } });
    await settle();
    const more = screen.getByRole('button', { name: /^More sections/ });
    // Three redemptions and two connection problems are not "5" of anything.
    expect(more.textContent?.trim()).toBe('More ▾');
    expect(more.getAttribute('aria-label')).toBe('More sections: 3 redemptions waiting, 2 connection problems');
    expect(more.getAttribute('title')).toBe('3 redemptions waiting, 2 connection problems');
    await fireEvent.click(more);
    expect(screen.getByRole('menuitem', { name: 'Redemptions 3 redemptions waiting' })).toBeTruthy();
    expect(screen.getByRole('menuitem', { name: 'Health 2 connection problems' })).toBeTruthy();
  });

  it('draws a badge the same in the row and in the menu: one shared style', async () => {
    stubTabLayout(340);
    const tabs = PANEL_TABS.map((t) => (t.id === 'chat' ? { ...t, badge: 1, badgeText: '1 new' } : t));
    render(TabBar<Id>, { props: { label: 'Sections', idPrefix: 'main', tabs, selected: 'chat', onSelect: () => {} } });
    await settle();
    await fireEvent.click(screen.getByRole('button', { name: /^More sections/ }));
    const inRow = screen.getByRole('tab', { name: 'Chat 1 new' }).querySelector('[aria-label="1 new"]');
    const inMenu = screen
      .getByRole('menuitem', { name: /^Health/ })
      .querySelector('[aria-label="2 connection problems"]');
    expect(inRow?.className).toBeTruthy();
    expect(inMenu?.className).toBe(inRow?.className);
  });
});

describe('TabBar: keyboard', () => {
  it('opens the menu with Enter on its first item and moves with the arrows, Home and End', async () => {
    const { more } = setup(340);
    await settle();
    await fireEvent.keyDown(more(), { key: 'Enter' });
    await settle();
    const item = (name: string) => screen.getByRole('menuitem', { name });
    expect(document.activeElement).toBe(item('Redemptions'));
    await fireEvent.keyDown(document.activeElement!, { key: 'ArrowDown' });
    expect(document.activeElement).toBe(item('Rewards'));
    await fireEvent.keyDown(document.activeElement!, { key: 'ArrowUp' });
    await fireEvent.keyDown(document.activeElement!, { key: 'ArrowUp' });
    expect(document.activeElement).toBe(item('Settings'));
    await fireEvent.keyDown(document.activeElement!, { key: 'Home' });
    expect(document.activeElement).toBe(item('Redemptions'));
    await fireEvent.keyDown(document.activeElement!, { key: 'End' });
    expect(document.activeElement).toBe(item('Settings'));
  });

  it('picks with Enter and moves focus to the picked tab in the row', async () => {
    const { more, picked } = setup(340);
    await settle();
    await fireEvent.keyDown(more(), { key: 'ArrowUp' });
    await settle();
    expect(document.activeElement?.textContent?.trim()).toBe('Settings');
    await fireEvent.keyDown(document.activeElement!, { key: 'Enter' });
    await settle();
    expect(picked).toEqual(['settings']);
    expect(screen.queryByRole('menu')).toBeNull();
    expect(document.activeElement).toBe(screen.getByRole('tab', { name: 'Settings' }));
  });

  it('closes with Escape and gives focus back to "More"', async () => {
    const { more, picked } = setup(340);
    await settle();
    await fireEvent.keyDown(more(), { key: 'ArrowDown' });
    await settle();
    await fireEvent.keyDown(document.activeElement!, { key: 'Escape' });
    expect(screen.queryByRole('menu')).toBeNull();
    expect(document.activeElement).toBe(more());
    expect(picked).toEqual([]);
  });

  it('closes on a click elsewhere', async () => {
    const { more } = setup(340);
    await settle();
    await fireEvent.click(more());
    await fireEvent.pointerDown(screen.getByRole('tab', { name: 'Chat' }));
    expect(screen.queryByRole('menu')).toBeNull();
  });

  it('moves through every tab with the arrows, those under "More" included', async () => {
    const { row, picked } = setup(340, 'modlog');
    await settle();
    await fireEvent.keyDown(screen.getByRole('tab', { name: 'Mod log' }), { key: 'ArrowRight' });
    await settle();
    expect(picked).toEqual(['redemptions']);
    expect(row()).toContain('Redemptions');
    expect(document.activeElement).toBe(screen.getByRole('tab', { name: 'Redemptions' }));
    await fireEvent.keyDown(document.activeElement!, { key: 'End' });
    await settle();
    expect(document.activeElement).toBe(screen.getByRole('tab', { name: 'Settings' }));
    await fireEvent.keyDown(document.activeElement!, { key: 'ArrowRight' });
    await settle();
    expect(picked.at(-1)).toBe('chat');
  });

  it('gives problems the warning colour in the row, in the menu and on the "More ▾" dot, not the accent', async () => {
    stubTabLayout(340);
    const tone = (t: (typeof PANEL_TABS)[number]) => (t.id === 'health' ? { ...t, badgeTone: 'warn' as const } : t);
    const tabs = PANEL_TABS.map((t) => (t.id === 'redemptions' ? { ...t, badge: 3, badgeText: '3 waiting' } : tone(t)));
    const r = render(TabBar<Id>, {
      props: { label: 'Sections', idPrefix: 'main', tabs, selected: 'chat', onSelect: () => {} },
    });
    await settle();
    const more = screen.getByRole('button', { name: /^More sections/ });
    expect(more.querySelector('.badge')!.getAttribute('data-tone')).toBe('warn');
    await fireEvent.click(more);
    const badgeOf = (name: RegExp) => screen.getByRole('menuitem', { name }).querySelector('.badge')!;
    expect(badgeOf(/^Health/).getAttribute('data-tone')).toBe('warn');
    expect(badgeOf(/^Redemptions/).getAttribute('data-tone')).toBe('count');
    // Only redemptions waiting under "More": the dot is the plain one.
    await r.rerender({ tabs: tabs.map((t) => (t.id === 'health' ? { ...t, badge: 0 } : t)) });
    await settle();
    expect(more.querySelector('.badge')!.getAttribute('data-tone')).toBe('count');
    // Selected, Health sits in the row with its warning badge.
    await r.rerender({ tabs, selected: 'health' });
    await settle();
    expect(
      screen
        .getByRole('tab', { name: /^Health/ })
        .querySelector('.badge')!
        .getAttribute('data-tone'),
    ).toBe('warn');
  });
});
