import { describe, expect, it } from 'vitest';
import { SessionState } from '../../../../../renderer/src/lib/state/session.svelte';
import { createFakeApi } from '../../fake-api';
import { account, snapshot } from '../../fixtures';

describe('SessionState', () => {
  it('lists missing scopes and signs in again asking for them', async () => {
    const fake = createFakeApi();
    fake.ok('app:snapshot', snapshot({ account: account({ scopes: ['user:read'] }) }));
    const session = new SessionState(fake.api);
    await session.load();
    expect(session.missingScopes).toContain('ads:write');
    fake.ok('auth:start-login', account());
    await session.addScope('ads:write');
    expect(fake.argsOf('auth:start-login')).toEqual([[{ scopes: ['user:read', 'ads:write'] }]]);
    expect(session.missingScopes).not.toContain('ads:write');
  });

  it('signs out', async () => {
    const fake = createFakeApi();
    const session = new SessionState(fake.api);
    await session.load();
    await session.signOut();
    expect(session.signedIn).toBe(false);
  });
});
