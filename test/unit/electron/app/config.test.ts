import { describe, expect, it } from 'vitest';
import { DEFAULT_OVERLAY_SETTINGS } from '../../../../shared/overlays';
import { DEFAULT_CHAT_TOOLS_SETTINGS } from '../../../../shared/chat-tools';
import { DEFAULT_AUTOMOD_SETTINGS } from '../../../../shared/automod';
import { DEFAULT_CHAT_BOT_SETTINGS } from '../../../../shared/chat-bot';
import { DEFAULT_OBS_ACTIONS } from '../../../../shared/obs-actions';
import { KICK_EVENT_TYPES, KICK_SCOPES } from '../../../../shared/kick/scopes';
import { type ConfigInput, resolveConfig, resolveDataDir, SANDBOX_NOTICE } from '../../../../electron/app/config';
import type { SettingsValues } from '../../../../electron/app/settings';

const SETTINGS: SettingsValues = {
  clientId: '',
  redirectUri: 'http://127.0.0.1:3000/callback',
  tunnel: 'localtunnel',
  wantedEvents: [...KICK_EVENT_TYPES],
  scopes: [...KICK_SCOPES],
  notifications: { follows: true, subs: true, kicks: true, redemptions: true },
  chatScrollback: 1000,
  lateAfterSec: 120,
  emoteHost: 'https://files.kick.com',
  installSubdomain: 'greenroomabcdefgh',
  managedRewardIds: [],
  webhookPort: 7532,
  setupGuideDone: true,
  overlays: DEFAULT_OVERLAY_SETTINGS,
  streamerMode: false,
  theme: 'system',
  obs: { enabled: false, host: '127.0.0.1', port: 4455 },
  automod: DEFAULT_AUTOMOD_SETTINGS,
  chatBot: DEFAULT_CHAT_BOT_SETTINGS,
  chatTools: DEFAULT_CHAT_TOOLS_SETTINGS,
  modNotes: {},
  obsActions: DEFAULT_OBS_ACTIONS,
  liveSocket: { enabled: true, channelId: null, chatroomId: null, idsFor: null },
  history: { chatDays: 90 },
};

const input = (
  over: Omit<Partial<ConfigInput>, 'settings'> & { settings?: Partial<SettingsValues> } = {},
): ConfigInput => ({
  env: {},
  storedClientSecret: null,
  dataDir: '/data',
  ...over,
  settings: { ...SETTINGS, ...over.settings },
});

describe('resolveConfig', () => {
  it('runs on the embedded sandbox without credentials, and says so', () => {
    const config = resolveConfig(input());
    expect(config).toMatchObject({
      mode: 'sandbox',
      sandboxNotice: SANDBOX_NOTICE,
      kick: null,
      clientId: '',
      credentialSource: { clientId: 'none', clientSecret: 'none' },
      sandbox: { autoApproveUserId: null, simulatedActivity: true },
      // The sandbox delivers on this computer: no public tunnel unless asked for.
      tunnel: { setting: 'off', host: null, subdomain: 'greenroomabcdefgh' },
      emoteHost: null,
      webhook: { port: 7532, portSource: 'settings', path: '/kick/webhook', replayWindowSeconds: 172_800 },
      panelPort: 7531,
    });
    expect(SANDBOX_NOTICE).toBe(
      "Running on the Greenroom sandbox: a simulated Kick on this computer. You can already stream from OBS to its channel (OBS tab → Set up OBS for Kick); for real viewers, add your Kick app's client id and secret in Settings.",
    );
  });

  it('talks to Kick with a client id from the settings and the secret from the store', () => {
    const config = resolveConfig(input({ settings: { clientId: '01ABC' }, storedClientSecret: 's3cret' }));
    expect(config).toMatchObject({
      mode: 'kick',
      sandboxNotice: null,
      kick: {
        apiUrl: 'https://api.kick.com',
        authUrl: 'https://id.kick.com',
        clientId: '01ABC',
        clientSecret: 's3cret',
      },
      credentialSource: { clientId: 'settings', clientSecret: 'store' },
      tunnel: { setting: 'localtunnel' },
      emoteHost: 'https://files.kick.com',
      sandbox: null,
    });
  });

  it('lets the environment override everything', () => {
    const config = resolveConfig(
      input({
        settings: { clientId: 'from-settings' },
        storedClientSecret: 'stored',
        env: {
          GREENROOM_CLIENT_ID: 'env-id',
          GREENROOM_CLIENT_SECRET: 'env-secret',
          GREENROOM_KICK_API_URL: 'http://127.0.0.1:4000/',
          GREENROOM_KICK_AUTH_URL: 'http://127.0.0.1:4001',
          GREENROOM_WEBHOOK_PORT: '0',
          GREENROOM_WEBHOOK_PATH: '/hooks/kick',
          GREENROOM_REPLAY_WINDOW_S: '0',
          GREENROOM_TUNNEL: 'https://hooks.example.com',
          GREENROOM_TUNNEL_HOST: 'https://lt.example.com',
          GREENROOM_PANEL_PORT: '0',
        },
      }),
    );
    expect(config).toMatchObject({
      mode: 'kick',
      kick: {
        apiUrl: 'http://127.0.0.1:4000',
        authUrl: 'http://127.0.0.1:4001',
        clientId: 'env-id',
        clientSecret: 'env-secret',
      },
      credentialSource: { clientId: 'env', clientSecret: 'env' },
      webhook: { port: 0, portSource: 'env', path: '/hooks/kick', replayWindowSeconds: 0 },
      tunnel: { setting: 'https://hooks.example.com', host: 'https://lt.example.com' },
      panelPort: 0,
    });
  });

  it('keeps the webhook receiver on the port in the settings unless the environment names another', () => {
    // Not 0: a free port picked on every start is one a streamer's own tunnel or reverse proxy cannot follow.
    expect(resolveConfig(input()).webhook).toMatchObject({ port: 7532, portSource: 'settings' });
    expect(resolveConfig(input({ settings: { webhookPort: 8100 } })).webhook).toMatchObject({
      port: 8100,
      portSource: 'settings',
    });
    expect(
      resolveConfig(input({ settings: { webhookPort: 8100 }, env: { GREENROOM_WEBHOOK_PORT: ' 9000 ' } })).webhook,
    ).toMatchObject({ port: 9000, portSource: 'env' });
  });

  it('refuses a webhook port on the panel port, naming the variable that set it and a port to pick', () => {
    expect(() => resolveConfig(input({ env: { GREENROOM_WEBHOOK_PORT: '7531' } }))).toThrow(
      "GREENROOM_WEBHOOK_PORT is 7531, the same as Greenroom's panel port; the two need their own ports, so pick another, such as 7532",
    );
    expect(() => resolveConfig(input({ env: { GREENROOM_PANEL_PORT: '7532' } }))).toThrow(
      /^GREENROOM_PANEL_PORT is 7532, the same as Greenroom's webhook port \(in the settings\)/,
    );
    expect(() =>
      resolveConfig(input({ env: { GREENROOM_PANEL_PORT: '8100', GREENROOM_WEBHOOK_PORT: '08100' } })),
    ).toThrow(/^GREENROOM_WEBHOOK_PORT is 8100/);
    // 0 picks a free port for each: they never meet.
    expect(resolveConfig(input({ env: { GREENROOM_PANEL_PORT: '0', GREENROOM_WEBHOOK_PORT: '0' } })).panelPort).toBe(0);
  });

  it('warns at start when the redirect URL in the settings file is on the panel or webhook port', () => {
    const { warnings } = resolveConfig(input({ settings: { redirectUri: 'http://[::1]:7531/callback' } }));
    expect(warnings).toEqual([
      'the sign-in redirect URL http://[::1]:7531/callback cannot work: Port 7531 is the one Greenroom uses for its panel and OBS links. Pick another port, such as 3000. Change it in Settings',
    ]);
    const onReceiver = resolveConfig(input({ settings: { redirectUri: 'http://localhost:7532/cb' } })).warnings;
    expect(onReceiver[0]).toMatch(/Port 7532 is the one Greenroom uses for receiving Kick's events/);
    expect(resolveConfig(input({ settings: { redirectUri: 'http://127.0.0.1:0/callback' } })).warnings).toEqual([]);
  });

  it('warns (not fails) when Kick URLs or half the credentials are given without the rest', () => {
    const config = resolveConfig(
      input({ env: { GREENROOM_KICK_API_URL: 'http://127.0.0.1:4000', GREENROOM_CLIENT_ID: 'id' } }),
    );
    expect(config.mode).toBe('sandbox');
    expect(config.warnings.join('\n')).toMatch(/GREENROOM_KICK_API_URL is ignored/);
    expect(config.warnings.join('\n')).toMatch(/client secret is missing/);
  });

  it('reads the sandbox switches for tests and tools', () => {
    const config = resolveConfig(
      input({ env: { GREENROOM_SANDBOX_AUTO_APPROVE: '100001', GREENROOM_SANDBOX_ACTIVITY: 'off' } }),
    );
    expect(config.sandbox).toEqual({ autoApproveUserId: 100001, simulatedActivity: false });
  });

  it("reads the journal's rollover for tests, and leaves the journal's defaults when unset", () => {
    expect(resolveConfig(input()).webhook.journal).toBeNull();
    const env = { GREENROOM_JOURNAL_SEGMENT_KB: '16', GREENROOM_JOURNAL_SEGMENTS: '2' };
    expect(resolveConfig(input({ env })).webhook.journal).toEqual({ segmentBytes: 16_384, segments: 2 });
    const sizeOnly = resolveConfig(input({ env: { GREENROOM_JOURNAL_SEGMENT_KB: '64' } }));
    expect(sizeOnly.webhook.journal).toEqual({ segmentBytes: 65_536 });
  });

  it.each([
    ['GREENROOM_WEBHOOK_PORT', '65536', /GREENROOM_WEBHOOK_PORT must be a port from 0 to 65535/],
    ['GREENROOM_WEBHOOK_PORT', '-1', /GREENROOM_WEBHOOK_PORT/],
    ['GREENROOM_PANEL_PORT', 'eighty', /GREENROOM_PANEL_PORT must be a port/],
    ['GREENROOM_REPLAY_WINDOW_S', '1.5', /GREENROOM_REPLAY_WINDOW_S must be a whole number/],
    ['GREENROOM_WEBHOOK_PATH', 'kick/webhook', /GREENROOM_WEBHOOK_PATH must be a URL path/],
    ['GREENROOM_WEBHOOK_PATH', '/a?b=1', /GREENROOM_WEBHOOK_PATH/],
    ['GREENROOM_KICK_API_URL', 'api.kick.com', /GREENROOM_KICK_API_URL must be an http or https URL/],
    ['GREENROOM_KICK_AUTH_URL', 'ftp://id.kick.com', /GREENROOM_KICK_AUTH_URL/],
    ['GREENROOM_TUNNEL', 'ngrok', /GREENROOM_TUNNEL must be "localtunnel", "off" or an https URL/],
    ['GREENROOM_TUNNEL', 'http://plain.example', /GREENROOM_TUNNEL/],
    ['GREENROOM_TUNNEL_HOST', 'lt', /GREENROOM_TUNNEL_HOST/],
    ['GREENROOM_SANDBOX_AUTO_APPROVE', 'streamer', /GREENROOM_SANDBOX_AUTO_APPROVE/],
    ['GREENROOM_SANDBOX_ACTIVITY', 'maybe', /GREENROOM_SANDBOX_ACTIVITY must be "on" or "off"/],
    ['GREENROOM_JOURNAL_SEGMENT_KB', '0', /GREENROOM_JOURNAL_SEGMENT_KB must be a whole number from 1 to 1048576/],
    ['GREENROOM_JOURNAL_SEGMENT_KB', '1048577', /GREENROOM_JOURNAL_SEGMENT_KB must be a whole number from 1/],
    ['GREENROOM_JOURNAL_SEGMENTS', '2.5', /GREENROOM_JOURNAL_SEGMENTS must be a whole number from 1 to 1000/],
  ])('rejects %s=%s naming the variable', (name, value, message) => {
    expect(() => resolveConfig(input({ env: { [name]: value } }))).toThrow(
      expect.objectContaining({ code: 'InvalidArgument', variable: name, message: expect.stringMatching(message) }),
    );
  });

  it('resolves the data dir from the environment or the platform default', () => {
    expect(resolveDataDir({}, '/home/me/.config/greenroom')).toBe('/home/me/.config/greenroom');
    expect(resolveDataDir({ GREENROOM_DATA_DIR: ' /tmp/gr ' }, '/x')).toBe('/tmp/gr');
    expect(() => resolveDataDir({ GREENROOM_DATA_DIR: 'a\0b' }, '/x')).toThrow(/GREENROOM_DATA_DIR/);
  });
});

describe("resolveConfig: Kick's live socket", () => {
  const kick = { GREENROOM_CLIENT_ID: 'id', GREENROOM_CLIENT_SECRET: 'secret' };

  it("points at Kick's hosts by default, and at any stand-in the environment names", () => {
    expect(resolveConfig(input({ env: kick })).liveSocket).toEqual({
      pusherUrl: 'wss://ws-us2.pusher.com',
      webUrl: 'https://web.kick.com',
      siteUrl: 'https://kick.com',
    });
    const env = {
      ...kick,
      GREENROOM_KICK_SOCKET_URL: 'ws://127.0.0.1:7413/',
      GREENROOM_KICK_WEB_URL: 'http://127.0.0.1:7414',
    };
    expect(resolveConfig(input({ env })).liveSocket).toEqual({
      pusherUrl: 'ws://127.0.0.1:7413',
      webUrl: 'http://127.0.0.1:7414',
      siteUrl: 'http://127.0.0.1:7414',
    });
  });

  it('leaves the sandbox its own, and says a variable is ignored there', () => {
    const config = resolveConfig(input({ env: { GREENROOM_KICK_SOCKET_URL: 'wss://x.example' } }));
    expect(config.liveSocket).toBeNull();
    expect(config.warnings.join('\n')).toContain('GREENROOM_KICK_SOCKET_URL is ignored');
  });

  for (const bad of [
    'https://ws.example',
    'wss://ws.example/app/key',
    'wss://ws.example?x=1',
    'not a url',
    'ftp://x',
  ]) {
    it(`refuses GREENROOM_KICK_SOCKET_URL=${bad}, naming the variable`, () => {
      expect(() => resolveConfig(input({ env: { ...kick, GREENROOM_KICK_SOCKET_URL: bad } }))).toThrow(
        /GREENROOM_KICK_SOCKET_URL must be a ws or wss URL/,
      );
    });
  }

  it('refuses a web URL that is not http(s), naming the variable', () => {
    expect(() => resolveConfig(input({ env: { ...kick, GREENROOM_KICK_WEB_URL: 'wss://web.example' } }))).toThrow(
      /GREENROOM_KICK_WEB_URL must be an http or https URL/,
    );
  });
});
