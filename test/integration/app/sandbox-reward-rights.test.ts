/**
 * Which rewards the panel may edit survives a restart in sandbox mode
 * ([design notes](../../../docs/design-notes.md#which-rewards-greenroom-may-edit)): the same saved world
 * means the same edit rights. Kick lets only the app that created a reward change it; a reward another app
 * made stays read-only before and after the restart, one Greenroom made stays editable, whatever
 * redemptions the queue held. Through `router.invoke`, as the panel.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDefaultReward } from '../../../sandbox/admin/generate-redemption';
import { redeemReward } from '../../../sandbox/api/rewards-redeem';
import { FIRST_VIEWER_USER_ID as VIEWER_ID, STREAMER_USER_ID } from '../../../sandbox/world';
import { consentBrowser } from './create-app-fixtures';
import { call, type StartedApp, startSandboxApp } from './sandbox-remembers-fixtures';

const browser = consentBrowser(STREAMER_USER_ID);
const POLL = { timeout: 5000 };
const OTHER_APP = 'another-streaming-tool';

describe('edit rights on rewards, across a sandbox-mode restart', () => {
  let dir: string;
  let run: StartedApp | null = null;
  let mine: string;
  let theirs: string;
  let seeded: string;

  const restart = async (): Promise<StartedApp> => {
    await run?.app.stop();
    run = await startSandboxApp(dir, (url) => browser.open(url));
    await expect.poll(async () => (await call(run!.app, 'app:snapshot')).account.signedIn, POLL).toBe(true);
    return run;
  };

  const rights = async (): Promise<Record<string, boolean>> => {
    const rewards = await call(run!.app, 'rewards:list');
    const ids = [mine, theirs, seeded];
    return Object.fromEntries(rewards.filter((r) => ids.includes(r.id)).map((r) => [r.id, r.canManage]));
  };

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'greenroom-reward-rights-'));
  });

  afterAll(async () => {
    await run?.app.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it("before the restart: the reward it made is editable, the other app's is not", async () => {
    run = await startSandboxApp(dir, (url) => browser.open(url));
    await call(run.app, 'auth:start-login', {});
    await browser.settled();
    const { state } = run.app.sandbox!.ctx;
    mine = (await call(run.app, 'rewards:create', { title: 'Hydrate', cost: 250 })).id;
    // A reward another app on the account made (Kick's dashboard, another bot): Greenroom may not edit it.
    // Another id beside it: the last character changed, never to the one it already has.
    theirs = `${mine.slice(0, -1)}${mine.endsWith('Z') ? 'Y' : 'Z'}`;
    state.rewards.set(theirs, {
      ...state.rewards.get(mine)!,
      id: theirs,
      title: 'Made elsewhere',
      createdByClientId: OTHER_APP,
    });
    // A reward the sandbox seeded for Greenroom's app, with a waiting redemption: Kick's queue says it is ours.
    seeded = createDefaultReward(state, STREAMER_USER_ID, run.app.sandbox!.ctx.app.clientId)!.id;
    redeemReward(state, { rewardId: seeded, redeemerUserId: VIEWER_ID, userInput: 'hello' });
    await call(run.app, 'redemptions:list', {});
    expect(await rights()).toEqual({ [mine]: true, [theirs]: false, [seeded]: true });
  });

  it('after the restart: the same rights, before and after the queue is read', async () => {
    await restart();
    expect(await rights()).toEqual({ [mine]: true, [theirs]: false, [seeded]: true });
    await call(run!.app, 'redemptions:list', {});
    expect(await rights()).toEqual({ [mine]: true, [theirs]: false, [seeded]: true });
  });

  it('after redemptions of both and another restart: still the same rights', async () => {
    const { state } = run!.app.sandbox!.ctx;
    for (const rewardId of [mine, theirs]) {
      redeemReward(state, { rewardId, redeemerUserId: VIEWER_ID, userInput: '' });
    }
    await call(run!.app, 'redemptions:list', {});
    expect(await rights()).toEqual({ [mine]: true, [theirs]: false, [seeded]: true });
    await restart();
    expect(await rights()).toEqual({ [mine]: true, [theirs]: false, [seeded]: true });
    await call(run!.app, 'redemptions:list', {});
    expect(await rights()).toEqual({ [mine]: true, [theirs]: false, [seeded]: true });
  });
});
