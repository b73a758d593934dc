/**
 * `stream:info` through the real router, handlers and services, on a Kick client pointed at the sandbox:
 * signed out it answers NotSignedIn (not a Kick error about a missing token), signed in it shows the
 * streamer's own channel.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { HandlerDeps } from '../../../electron/ipc/handlers';
import { createHandlers } from '../../../electron/ipc/handlers';
import { createRouter, type Router } from '../../../electron/ipc/router';
import type { Kick } from '../../../electron/kick/create-kick';
import type { Sandbox } from '../../../sandbox/index';
import { STREAMER_USER_ID } from '../../../sandbox/world';
import { AccountService } from '../../../electron/services/account';
import { ChannelOps } from '../../../electron/services/channel-ops';
import { createTestBrowser, kickOnSandbox } from '../../helpers/kick-on-sandbox';
import { startSandbox } from '../../helpers/sandbox';

let sandbox: Sandbox;
let kick: Kick;
let router: Router;
const logs: string[] = [];

beforeEach(async () => {
  sandbox = await startSandbox({ autoApproveUserId: STREAMER_USER_ID });
  kick = kickOnSandbox(sandbox, { openExternal: createTestBrowser(sandbox).open });
  const log = (line: string): void => void logs.push(line);
  const account = new AccountService({ kick, log });
  account.start();
  const channel = new ChannelOps({
    client: kick.client,
    managedRewards: { has: () => false, add: () => undefined, remove: () => undefined },
    broadcasterUserId: () => account.userId(),
    onRedemptionsDecided: () => undefined,
    log,
  });
  // Only what stream:info reaches is given; the other handlers are never called here.
  const deps = { account, channel, log } as unknown as HandlerDeps;
  router = createRouter({ handlers: createHandlers(deps), log });
});

afterEach(async () => {
  await kick.close();
  await sandbox.close();
});

describe('stream:info', () => {
  it('answers NotSignedIn while signed out', async () => {
    expect(await router.invoke('stream:info', [])).toEqual({
      ok: false,
      error: { code: 'NotSignedIn', message: expect.any(String) },
    });
  });

  it("shows the signed-in streamer's own channel", async () => {
    await kick.signIn();
    const result = await router.invoke('stream:info', []);
    expect(result).toMatchObject({ ok: true, value: { broadcaster_user_id: STREAMER_USER_ID } });
  });
});
