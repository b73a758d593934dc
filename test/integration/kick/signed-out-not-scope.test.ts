/**
 * Signed out means signed out: a call Kick answers only for the streamer, made with the app token because no
 * one is signed in, is "sign in" (NotSignedIn), never Kick forbidding it nor a missing scope; signed in
 * without the scope, it names the scope. The real client over HTTP against the sandbox, which refuses the
 * app token there with 403 as Kick does.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Kick } from '../../../electron/kick/create-kick';
import type { Sandbox } from '../../../sandbox/index';
import { STREAMER_USER_ID } from '../../../sandbox/world';
import { createTestBrowser, kickOnSandbox } from '../../helpers/kick-on-sandbox';
import { startSandbox } from '../../helpers/sandbox';

let sandbox: Sandbox;
let kick: Kick;

const setUp = async (scopes?: string[]): Promise<void> => {
  sandbox = await startSandbox({ autoApproveUserId: STREAMER_USER_ID });
  kick = kickOnSandbox(sandbox, { openExternal: createTestBrowser(sandbox).open, scopes });
};

afterEach(async () => {
  await kick?.close();
  await sandbox?.close();
});

describe('a call for the streamer without the streamer', () => {
  beforeEach(() => setUp());

  it('is NotSignedIn while no one is signed in', async () => {
    await expect(kick.client.fetchChannel()).rejects.toMatchObject({ code: 'NotSignedIn' });
  });

  it('is NotSignedIn once the sign-in is gone, as after the sandbox forgot it', async () => {
    await kick.signIn();
    await expect(kick.client.fetchChannel()).resolves.toMatchObject({ broadcaster_user_id: STREAMER_USER_ID });
    await kick.signOut();
    await expect(kick.client.fetchChannel()).rejects.toMatchObject({ code: 'NotSignedIn' });
  });
});

describe('a call for the streamer without its scope', () => {
  beforeEach(() => setUp(['user:read', 'chat:write']));

  it('names the scope to grant', async () => {
    await kick.signIn();
    await expect(kick.client.fetchChannel()).rejects.toMatchObject({
      code: 'MissingScope',
      details: { scopes: ['channel:read'] },
    });
  });
});
