/**
 * The app's one live status, wired (../../../docs/chat-bot.md#live-status-comes-from-kick): the sign-in asks
 * Kick and every panel hears the answer (`stream:changed`); a stream Kick reports ended without its event
 * (the delivery lost) is offline after the next ask; and a sign-out tells every panel that the figures it holds
 * are as of then, never current.
 */
import { describe, expect, it } from 'vitest';
import { setChannelLive } from '../../../sandbox/admin/generate-stream';
import { defaultRng } from '../../../sandbox/admin/random';
import { STREAMER_USER_ID } from '../../../sandbox/world';
import { call, fx, received, useSetup } from './create-app-sandbox-mode-fixtures';

useSetup();

const WAIT = { timeout: 10_000 };
const lastPushed = () => received['stream:changed'].at(-1);

describe('the live status in the app', () => {
  it('asks Kick at sign-in and pushes the answer to every panel', async () => {
    const channel = fx.sandbox.ctx.state.channels.get(STREAMER_USER_ID)!;
    setChannelLive(fx.sandbox.ctx.state, channel, true, defaultRng);
    await call('auth:start-login', {});
    await expect.poll(() => lastPushed()?.stream.is_live, WAIT).toBe(true);
    expect(lastPushed()).toMatchObject({ broadcaster_user_id: STREAMER_USER_ID, signedIn: true });
    expect(lastPushed()?.stream).not.toHaveProperty('key');
  });

  it("takes Kick's word on a panel read when the stream ended without its event", async () => {
    // Ended on Kick, and its event never arrives: only asking Kick can tell.
    const channel = fx.sandbox.ctx.state.channels.get(STREAMER_USER_ID)!;
    channel.isLive = false;
    const info = await call('stream:info');
    expect(info?.stream.is_live).toBe(false);
    expect(lastPushed()?.stream.is_live).toBe(false);
  });

  it('tells every panel, at sign-out, that its figures are as of then', async () => {
    const before = Date.now();
    await call('auth:sign-out');
    await expect.poll(() => lastPushed()?.signedIn, WAIT).toBe(false);
    expect(lastPushed()?.asOfMs).toBeLessThanOrEqual(Date.now());
    expect(lastPushed()?.asOfMs).toBeGreaterThan(before - 60_000);
    await expect(call('stream:info')).rejects.toThrow(/NotSignedIn/);
  });
});
