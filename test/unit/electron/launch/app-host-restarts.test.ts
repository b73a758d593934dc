/**
 * The app host against the real composition root (createApp, the settings store, the embedded sandbox in
 * sandbox mode) with the fake webhook port: a settings change that the app was built from rebuilds it in
 * this process, behind the same router and events; one that is read live leaves it alone.
 *
 * This file: the app host when settings fail, change quickly, or stop.
 */
import { describe, expect, it } from 'vitest';
import { fx, nextRestart, onKick, ports, startHost, useSetup } from './app-host-fixtures';

useSetup();

describe('the app host', () => {
  it('when neither the new nor the previous settings start, still loads the panel to change them or restart', async () => {
    await onKick();
    const running = await startHost();
    fx.refuse = () => true;
    const failed = nextRestart(running);
    fx.settings.update({ tunnel: 'off' });
    expect((await failed).message).toMatch(/^Greenroom could not start with the tunnel, nor with the previous/);
    expect(await running.router.invoke('chat:history', [])).toMatchObject({
      ok: false,
      error: { code: 'Internal', message: expect.stringMatching(/^Greenroom is stopped: neither the new settings/) },
    });
    // The panel still loads and shows why, with Restart now.
    expect(await running.router.invoke('app:snapshot', [])).toMatchObject({
      ok: true,
      value: { settings: { notApplied: { reason: expect.stringMatching(/nor with the previous settings/) } } },
    });

    // Putting the setting back starts Greenroom again, on its own.
    fx.refuse = (config) => config.tunnel.setting === 'off';
    const back = nextRestart(running);
    expect(await running.router.invoke('settings:update', [{ tunnel: 'localtunnel' }])).toMatchObject({ ok: true });
    expect((await back).message).toMatch(/^Greenroom now runs with the saved settings/);
    expect(await running.router.invoke('chat:history', [])).toEqual({ ok: true, value: [] });
    expect(running.notApplied()).toBeNull();

    // And Restart now works from that state too.
    fx.refuse = () => true;
    const failedAgain = nextRestart(running);
    fx.settings.update({ tunnel: 'off' });
    await failedAgain;
    fx.refuse = () => false;
    const retried = nextRestart(running);
    expect(await running.router.invoke('app:restart', [])).toEqual({ ok: true, value: null });
    await retried;
    expect(await running.router.invoke('chat:history', [])).toEqual({ ok: true, value: [] });
  });

  it('applies quick successive changes in order and ends on the last', async () => {
    await onKick();
    const running = await startHost();
    fx.settings.update({ tunnel: 'off' });
    fx.settings.update({ redirectUri: 'http://127.0.0.1:53682/callback' });
    fx.settings.update({ tunnel: 'https://my-proxy.example' });
    await running.apply();
    expect(running.app.config).toMatchObject({
      tunnel: { setting: 'https://my-proxy.example' },
      redirectUri: 'http://127.0.0.1:53682/callback',
    });
    // Every app but the last was stopped; nothing was left running.
    expect(ports.slice(0, -1).every((port) => port.calls.at(-1) === 'stop')).toBe(true);
    expect(ports.at(-1)!.calls).toEqual(['restore', 'start']);
  });

  it('stops the serving app, and follows no settings afterwards', async () => {
    await onKick();
    const running = await startHost();
    await running.stop();
    fx.host = null;
    fx.settings.update({ tunnel: 'off' });
    await running.apply();
    expect(ports).toHaveLength(1);
    expect(ports[0]!.calls).toEqual(['restore', 'start', 'stop']);
  });
});
