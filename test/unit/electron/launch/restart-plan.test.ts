import { describe, expect, it } from 'vitest';
import { type AppConfig, type Env, resolveConfig } from '../../../../electron/app/config';
import { readSettingsDocument, type SettingsValues } from '../../../../electron/app/settings';
import { describeApplied, planRestart } from '../../../../electron/launch/restart-plan';
import { KICK_EVENT_TYPES } from '../../../../shared/kick/scopes';

/** A new install's settings, every field at its default. */
const SETTINGS: SettingsValues = {
  ...readSettingsDocument({}, () => undefined).values,
  installSubdomain: 'greenroomabcd',
};

/** The configuration createApp would get for these settings, as the launch resolves it. */
function config(settings: Partial<SettingsValues> = {}, secret: string | null = null, env: Env = {}): AppConfig {
  return resolveConfig({ env, settings: { ...SETTINGS, ...settings }, storedClientSecret: secret, dataDir: '/data' });
}

const onKick = (settings: Partial<SettingsValues> = {}, secret = 'secret-1'): AppConfig =>
  config({ clientId: 'client-1', ...settings }, secret);

describe('planRestart', () => {
  it('needs nothing for settings the app reads live', () => {
    const before = onKick();
    const after = onKick({
      chatScrollback: 5000,
      notifications: { follows: false, subs: true, kicks: true, redemptions: false },
      scopes: ['chat:write'],
      emoteHost: 'https://emotes.example',
      managedRewardIds: ['r1'],
      setupGuideDone: false,
      liveSocket: { enabled: false, channelId: 1, chatroomId: 2, idsFor: 3 },
    });
    expect(planRestart(before, after)).toEqual({ changes: [] });
  });

  it('switches from the sandbox to Kick on saved credentials, and asks for a sign-in only when needed', () => {
    const plan = planRestart(config(), onKick());
    expect(plan).toEqual({ changes: ["your Kick app's credentials"] });
    expect(describeApplied(plan, { mode: 'kick', signedIn: false })).toBe(
      "Greenroom now runs with your Kick app's credentials. Sign in with Kick to continue.",
    );
    expect(describeApplied(plan, { mode: 'kick', signedIn: true })).toBe(
      "Greenroom now runs with your Kick app's credentials.",
    );
  });

  it('names a different Kick app and a new secret apart', () => {
    expect(planRestart(onKick(), onKick({ clientId: 'client-2' }))).toEqual({ changes: ['a different Kick app'] });
    expect(planRestart(onKick(), onKick({}, 'secret-2'))).toEqual({ changes: ['the new client secret'] });
  });

  it('rebuilds for the redirect URL, the tunnel and the wanted events', () => {
    const plan = planRestart(
      onKick(),
      onKick({
        redirectUri: 'http://127.0.0.1:53682/callback',
        tunnel: 'off',
        wantedEvents: ['chat.message.sent'],
      }),
    );
    expect(plan).toEqual({ changes: ['the redirect URL', 'the events to receive', 'the tunnel'] });
    expect(describeApplied(plan, { mode: 'kick', signedIn: true })).toBe(
      'Greenroom now runs with the redirect URL, the events to receive, the tunnel.',
    );
  });

  it('compares the wanted events as a set', () => {
    const reordered = [...KICK_EVENT_TYPES].reverse();
    expect(planRestart(onKick(), onKick({ wantedEvents: reordered })).changes).toEqual([]);
  });

  it('ignores a tunnel change on the embedded sandbox, which delivers on this computer', () => {
    expect(planRestart(config(), config({ tunnel: 'off' })).changes).toEqual([]);
    // A client id alone (no secret yet) still runs the sandbox.
    expect(planRestart(config(), config({ clientId: 'client-1' })).changes).toEqual([]);
  });

  it('rebuilds for the webhook receiver', () => {
    const moved = config({ clientId: 'client-1' }, 'secret-1', { GREENROOM_WEBHOOK_PATH: '/elsewhere' });
    expect(planRestart(onKick(), moved).changes).toEqual(['the webhook receiver']);
  });

  it('counts a configuration field it does not know as a rebuild, never as ignorable', () => {
    const next = { ...onKick(), somethingNew: 1 } as AppConfig;
    expect(planRestart(onKick(), next).changes).toEqual(['the "somethingNew" setting']);
  });

  it('goes back to the sandbox when the credentials disappear', () => {
    const env = { GREENROOM_CLIENT_ID: 'client-1', GREENROOM_CLIENT_SECRET: 'secret-1' };
    expect(planRestart(config({}, null, env), config())).toEqual({
      changes: ['the embedded sandbox (no Kick app credentials)'],
    });
  });
});
