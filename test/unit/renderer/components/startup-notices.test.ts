import '@testing-library/svelte/vitest';
import { fireEvent, render, screen } from '@testing-library/svelte';
import { describe, expect, it } from 'vitest';
import StartupNotices from '../../../../renderer/src/components/StartupNotices.svelte';
import { SessionState } from '../../../../renderer/src/lib/state/session.svelte';
import { createFakeApi } from '../fake-api';
import { snapshot } from '../fixtures';

const LEFT_OUT = {
  text: 'Some saved settings could not be read and were left out: blocked term “x” was dropped: unknown kind ‘foo’.',
  details: 'automod.blockedTerms.terms[1]: Invalid option',
};
const MOVED = {
  text: 'The mod log /data/mod-log.jsonl is a link to another place (/x), which Greenroom will not follow.',
  details: null,
};

async function setup(notices = [LEFT_OUT, MOVED]) {
  const fake = createFakeApi();
  fake.ok('app:snapshot', snapshot({ notices }));
  const session = new SessionState(fake.api);
  await session.load();
  return render(StartupNotices, { props: { notices: session.notices } });
}

describe('StartupNotices', () => {
  it('says each start-up notice in plain words, field paths behind Details, until OK', async () => {
    await setup();
    const region = screen.getByRole('status', { name: 'Start-up notices' });
    expect(region.textContent).toContain('blocked term “x” was dropped');
    expect(region.textContent).toContain('will not follow');
    expect(region.textContent).not.toContain('automod.blockedTerms');
    await fireEvent.click(screen.getByRole('button', { name: 'Details' }));
    expect(region.textContent).toContain('automod.blockedTerms.terms[1]');
    await fireEvent.click(screen.getByRole('button', { name: 'OK' }));
    expect(screen.queryByRole('status', { name: 'Start-up notices' })).toBeNull();
  });

  it('shows nothing when the start had nothing to say', async () => {
    await setup([]);
    expect(screen.queryByRole('status', { name: 'Start-up notices' })).toBeNull();
  });
});
