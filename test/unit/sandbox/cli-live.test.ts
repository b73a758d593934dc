/** `npm run sandbox -- live …` becomes the admin API call the docs name, or one usage line. */
import { describe, expect, it } from 'vitest';
import { CliUsageError, parseCliArgs, USAGE } from '../../../sandbox/admin/cli-args';

const env = { GREENROOM_SANDBOX_ADMIN_URL: 'http://127.0.0.1:7412', GREENROOM_SANDBOX_ADMIN_TOKEN: 'tok' };
const target = { kind: 'admin', adminUrl: 'http://127.0.0.1:7412', adminToken: 'tok', method: 'POST' };

describe('parseCliArgs: live', () => {
  it('turns each action into its admin call', () => {
    const cases: [string[], string, Record<string, unknown>][] = [
      [['webhooks-behind', '10'], '/live-socket/settings', { webhook_delay_seconds: 600 }],
      [['providers', 'centrifugo'], '/live-socket/settings', { providers: ['centrifugo'] }],
      [['providers', 'none'], '/live-socket/settings', { providers: [] }],
      [['lookup', 'cloudflare'], '/live-socket/settings', { lookup: 'cloudflare' }],
      [['connections', 'refused'], '/live-socket/settings', { connections: 'refused' }],
      [['drop', '4200'], '/live-socket/drop', { code: 4200 }],
      [['drop', 'cut', '--provider', 'pusher'], '/live-socket/drop', { code: 'cut', provider: 'pusher' }],
      [
        ['host', '--from', 'xqc_sb', '--viewers', '120', '--message', 'hi', '--broadcaster', '200001'],
        '/live-socket/host',
        { host_username: 'xqc_sb', viewers: 120, message: 'hi', broadcaster_user_id: 200001 },
      ],
      [['unknown-fields'], '/live-socket/unknown-fields', {}],
      [['clear', '--broadcaster', '100001'], '/live-socket/clear', { broadcaster_user_id: 100001 }],
      [
        ['modes', 'slow=10', 'followers=30', 'subscribers=on', 'emotes=off', 'account-age=off'],
        '/live-socket/chatroom',
        {
          slow_mode: { enabled: true, message_interval: 10 },
          followers_mode: { enabled: true, min_duration: 30 },
          subscribers_mode: { enabled: true },
          emotes_mode: { enabled: false },
          account_age: { enabled: false },
        },
      ],
      [['modes', 'slow=off'], '/live-socket/chatroom', { slow_mode: { enabled: false } }],
      [['pin', 'msg-1'], '/live-socket/pin', { message_id: 'msg-1' }],
      [['pin', 'msg-1', '--seconds', '60'], '/live-socket/pin', { message_id: 'msg-1', duration_seconds: 60 }],
    ];
    for (const [words, path, body] of cases) {
      expect(parseCliArgs(['live', ...words], env)).toEqual({ ...target, path, body });
    }
    expect(parseCliArgs(['live', 'unpin'], env)).toEqual({
      ...target,
      method: 'DELETE',
      path: '/live-socket/pin',
      body: {},
    });
  });

  it('refuses a missing or unknown action and bad numbers with one line', () => {
    const bad: [string[], RegExp][] = [
      [[], /^live: expected one of webhooks-behind, /],
      [['reboot'], /^live: expected one of /],
      [['webhooks-behind'], /^live webhooks-behind: expected a number of minutes/],
      [['webhooks-behind', 'ten'], /^webhooks-behind: expected a number from 0/],
      [['host', '--viewers', 'lots'], /^--viewers: expected an integer/],
      [['clear', 'now'], /^live clear: takes no words after it/],
      [['connections'], /^live connections: expected accepted or refused/],
      [['drop', '--nope'], /Unknown option/],
      [['modes'], /^live modes: expected one or more of slow, followers/],
      [['modes', 'slowmode=10'], /^live modes: "slowmode=10" is not one of /],
      [['modes', 'slow'], /^live modes: "slow" is not one of /],
      [['modes', 'emotes=10'], /^live modes: emotes takes on or off, got "10"/],
      [['modes', 'slow=-1'], /^slow: expected an integer from 0/],
      [['pin'], /^live pin: expected the chat message id/],
      [['pin', 'a', '--seconds', '0'], /^--seconds: expected an integer from 1/],
      [['unpin', 'now'], /^live unpin: takes no words after it/],
    ];
    for (const [words, message] of bad) {
      expect(() => parseCliArgs(['live', ...words], env)).toThrow(CliUsageError);
      expect(() => parseCliArgs(['live', ...words], env)).toThrow(message);
    }
  });

  it('is in the usage text', () => {
    expect(USAGE).toContain('npm run sandbox -- live webhooks-behind <minutes>');
    expect(USAGE).toContain('npm run sandbox -- live modes slow=10');
    expect(USAGE).toContain('npm run sandbox -- live pin <MESSAGE_ID>');
  });
});
