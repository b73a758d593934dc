/**
 * The app host against the real composition root (createApp, the settings store, the embedded sandbox in
 * sandbox mode) with the fake webhook port: a settings change that the app was built from rebuilds it in
 * this process, behind the same router and events; one that is read live leaves it alone.
 *
 * This file: “the app host”.
 */
import { request } from 'undici';
import { describe, expect, it } from 'vitest';
import { STREAMER_USER_ID } from '../../../../sandbox/world';
import { SECRET_KEYS } from '../../../../electron/secrets/secret-store';
import { chat, fx, nextRestart, onKick, ports, startHost, useSetup } from './app-host-fixtures';

useSetup();

describe('the app host', () => {
  it('switches from the sandbox to Kick when credentials are saved, behind the same router and events', async () => {
    const running = await startHost();
    const first = running.app;
    expect(first.config.mode).toBe('sandbox');
    const restarted = nextRestart(running);

    const saved = await running.router.invoke('settings:set-credentials', [
      { clientId: 'client-1', clientSecret: 'secret-1' },
    ]);
    expect(saved).toMatchObject({ ok: true, value: { clientId: 'client-1', hasClientSecret: true } });
    expect(await restarted).toEqual({
      message: "Greenroom now runs with your Kick app's credentials. Sign in with Kick to continue.",
    });

    expect(running.app).not.toBe(first);
    expect(await running.router.invoke('app:snapshot', [])).toMatchObject({
      ok: true,
      value: { mode: 'kick', sandboxNotice: null, settings: { notApplied: null } },
    });
    // The old app is gone: its webhook side stopped and its embedded sandbox closed.
    expect(ports[0]!.calls).toEqual(['restore', 'start', 'stop']);
    expect(ports[1]!.calls).toEqual(['restore', 'start']);
    expect(running.app.sandbox).toBeUndefined();
  });

  it('on the sandbox, a new event list keeps the simulated channel and the sign-in', async () => {
    const running = await startHost();
    const sandbox = running.app.sandbox!;
    expect(await running.router.invoke('auth:start-login', [{}])).toMatchObject({
      ok: true,
      value: { signedIn: true, userId: STREAMER_USER_ID },
    });
    const first = running.app;

    const restarted = nextRestart(running);
    fx.settings.update({ wantedEvents: ['chat.message.sent'] });
    expect(await restarted).toEqual({ message: 'Greenroom now runs with the events to receive.' });
    expect(running.app).not.toBe(first);
    expect(running.app.sandbox).toBe(sandbox);
    expect(running.app.snapshot().account.signedIn).toBe(true);
    // The new app asks the sandbox who the token belongs to; the token issued before the rebuild still works.
    await expect.poll(() => running.app.snapshot().account.userId).toBe(STREAMER_USER_ID);
    // The sandbox still answers, with the token issued before the rebuild.
    expect(await running.router.invoke('stream:info', [])).toMatchObject({ ok: true });
  });

  it('closes the kept sandbox once Greenroom talks to Kick', async () => {
    const running = await startHost();
    const sandbox = running.app.sandbox!;
    const restarted = nextRestart(running);
    await running.router.invoke('settings:set-credentials', [{ clientId: 'client-1', clientSecret: 'secret-1' }]);
    await restarted;
    await expect(request(sandbox.urls.api)).rejects.toThrow(/ECONNREFUSED/);
  });

  it('moves event listeners to the new app, so a panel subscribed before the switch hears it', async () => {
    await onKick();
    const running = await startHost();
    const heard: string[] = [];
    running.events.on('kick:event', (event) => heard.push(event.kind === 'chat' ? event.message.content : '?'));
    ports[0]!.publish(chat('before'));

    const restarted = nextRestart(running);
    fx.settings.update({ tunnel: 'off' });
    await restarted;
    ports[1]!.publish(chat('after'));

    expect(heard).toEqual(['before', 'after']);
    // The chat the old app had is restored by the new one from the journal.
    expect(await running.router.invoke('chat:history', [])).toMatchObject({
      ok: true,
      value: [{ content: 'before' }, { content: 'after' }],
    });
  });

  it('keeps the Kick sign-in when the tunnel, the redirect URL or the wanted events change', async () => {
    await onKick();
    const token = JSON.stringify({
      accessToken: 'user-token',
      refreshToken: 'refresh',
      expiresAtMs: Date.now() + 3_600_000,
      scopes: ['chat:write'],
      clientId: 'client-1',
    });
    await fx.secrets.set(SECRET_KEYS.userToken, token);
    const running = await startHost();
    expect(running.app.snapshot().account.signedIn).toBe(true);

    const restarted = nextRestart(running);
    fx.settings.update({
      tunnel: 'off',
      redirectUri: 'http://127.0.0.1:53682/callback',
      wantedEvents: ['chat.message.sent'],
    });
    expect(await restarted).toEqual({
      message: 'Greenroom now runs with the redirect URL, the events to receive, the tunnel.',
    });
    expect(running.app.config).toMatchObject({
      tunnel: { setting: 'off' },
      redirectUri: 'http://127.0.0.1:53682/callback',
      wantedEvents: ['chat.message.sent'],
    });
    expect(ports.at(-1)!.deps?.wantedEvents()).toEqual(['chat.message.sent']);
    expect(running.app.snapshot().account.signedIn).toBe(true);
    expect(await fx.secrets.get(SECRET_KEYS.userToken)).toBe(token);
  });

  it('starts signed out on a different Kick app (its tokens were issued to the old one)', async () => {
    await onKick();
    await fx.secrets.set(
      SECRET_KEYS.userToken,
      JSON.stringify({
        accessToken: 'user-token',
        refreshToken: 'refresh',
        expiresAtMs: Date.now() + 3_600_000,
        scopes: [],
        clientId: 'client-1',
      }),
    );
    const running = await startHost();
    const restarted = nextRestart(running);
    await running.router.invoke('settings:set-credentials', [{ clientId: 'client-2', clientSecret: 'secret-2' }]);
    expect(await restarted).toEqual({
      message: 'Greenroom now runs with a different Kick app. Sign in with Kick to continue.',
    });
    expect(running.app.snapshot().account.signedIn).toBe(false);
  });

  it('leaves the running app alone for settings it reads live', async () => {
    await onKick();
    const running = await startHost();
    const first = running.app;
    let restarts = 0;
    running.events.on('app:restarted', () => restarts++);
    fx.settings.update({ chatScrollback: 5000, notifications: { follows: false }, setupGuideDone: true });
    // Applying is queued in order: this one finishes after the ones the changes above started.
    await running.apply();
    expect(running.app).toBe(first);
    expect(restarts).toBe(0);
    expect(ports).toHaveLength(1);
  });

  it('holds requests made during a swap for the new app instead of a stopped one', async () => {
    await onKick();
    const running = await startHost();
    let release!: () => void;
    fx.gate = new Promise((resolve) => (release = resolve));
    const building = new Promise<void>((resolve) => (fx.atGate = resolve));
    fx.settings.update({ tunnel: 'off' });
    await building;
    expect(ports[0]!.calls.at(-1)).toBe('stop');
    const order: string[] = [];
    const during = running.router.invoke('chat:history', []).then((result) => {
      order.push('answered');
      return result;
    });
    // Everything already queued runs first: a request passed to the stopped app would be answered by now.
    await new Promise((resolve) => setImmediate(resolve));
    order.push('released');
    release();
    expect(await during).toEqual({ ok: true, value: [] });
    expect(order).toEqual(['released', 'answered']);
    expect(running.app.config.tunnel.setting).toBe('off');
  });

  it('runs the previous settings again when the new ones cannot start, says why, and Restart now retries', async () => {
    await onKick();
    const running = await startHost();
    fx.refuse = (config) => config.tunnel.setting === 'off';

    const failed = nextRestart(running);
    fx.settings.update({ tunnel: 'off' });
    expect((await failed).message).toMatch(/could not switch to the tunnel, so it is still running with the previous/);
    expect(running.app.config.tunnel.setting).toBe('localtunnel');
    const view = await running.router.invoke('settings:get', []);
    expect(view).toMatchObject({
      ok: true,
      value: {
        tunnel: 'off',
        notApplied: {
          reason: expect.stringMatching(/^Greenroom could not switch to the tunnel/),
          details: 'listen EADDRINUSE: address already in use 127.0.0.1:7532',
        },
      },
    });

    // Whatever held the port is gone; the streamer presses Restart now.
    fx.refuse = () => false;
    const retried = nextRestart(running);
    expect(await running.router.invoke('app:restart', [])).toEqual({ ok: true, value: null });
    expect((await retried).message).toBe('Greenroom now runs with the tunnel. Sign in with Kick to continue.');
    expect(running.app.config.tunnel.setting).toBe('off');
    expect(running.notApplied()).toBeNull();
  });
});
