import { describe, expect, it } from 'vitest';
import {
  ADMIN_TOKEN_ENV,
  ADMIN_URL_ENV,
  CliUsageError,
  DEFAULT_SANDBOX_PORT,
  parseCliArgs,
} from '../../../sandbox/admin/cli-args';

const ADMIN = 'http://127.0.0.1:9999';

describe('parseCliArgs: serve', () => {
  it('defaults to the fixed ports with nothing set', () => {
    expect(parseCliArgs([])).toEqual({ kind: 'serve', args: { port: DEFAULT_SANDBOX_PORT, activity: false } });
  });

  it('reads every serve flag', () => {
    const command = parseCliArgs([
      '--port',
      '0',
      '--auth-port',
      '5001',
      '--admin-port=5002',
      '--client-id',
      'cid',
      '--client-secret',
      'sec',
      '--redirect-uri',
      'http://127.0.0.1:1/cb',
      '--redirect-uri',
      'http://localhost:1/cb',
      '--webhook-url',
      'http://127.0.0.1:2/hook',
      '--token-lifetime',
      '60',
      '--activity',
    ]);
    expect(command).toEqual({
      kind: 'serve',
      args: {
        port: 0,
        authPort: 5001,
        adminPort: 5002,
        clientId: 'cid',
        clientSecret: 'sec',
        redirectUris: ['http://127.0.0.1:1/cb', 'http://localhost:1/cb'],
        webhookUrl: 'http://127.0.0.1:2/hook',
        tokenLifetimeSeconds: 60,
        activity: true,
      },
    });
  });

  it('takes --state FILE, and refuses it empty', () => {
    expect(parseCliArgs(['--state', 'world.json'])).toEqual({
      kind: 'serve',
      args: { port: DEFAULT_SANDBOX_PORT, activity: false, stateFile: 'world.json' },
    });
    expect(() => parseCliArgs(['--state', ' '])).toThrow(/--state: name a file/);
  });

  it('takes --auto-approve bare (the streamer) or with a user id', () => {
    const bare = parseCliArgs(['--auto-approve', '--port', '0']);
    expect(bare).toMatchObject({ kind: 'serve', args: { autoApproveUserId: 100001, port: 0 } });
    expect(parseCliArgs(['--auto-approve', '100100'])).toMatchObject({ args: { autoApproveUserId: 100100 } });
    expect(parseCliArgs(['--port', '0', '--auto-approve'])).toMatchObject({ args: { autoApproveUserId: 100001 } });
  });

  it('rejects bad numbers, unknown flags, stray words and bad URLs', () => {
    expect(() => parseCliArgs(['--port', 'abc'])).toThrow('--port: expected an integer from 0 up to 65535, got "abc"');
    expect(() => parseCliArgs(['--port', '70000'])).toThrow(CliUsageError);
    expect(() => parseCliArgs(['--token-lifetime', '0'])).toThrow(/--token-lifetime/);
    expect(() => parseCliArgs(['--bogus'])).toThrow(CliUsageError);
    expect(() => parseCliArgs(['launch'])).toThrow('unknown command "launch" (see --help)');
    expect(() => parseCliArgs(['--webhook-url', 'not a url'])).toThrow('not an absolute URL: "not a url"');
    expect(() => parseCliArgs(['--port'])).toThrow(CliUsageError);
  });

  it('recognises help anywhere', () => {
    expect(parseCliArgs(['--help'])).toEqual({ kind: 'help' });
    expect(parseCliArgs(['-h'])).toEqual({ kind: 'help' });
    expect(parseCliArgs(['trigger', '--help'])).toEqual({ kind: 'help' });
    expect(parseCliArgs(['help'])).toEqual({ kind: 'help' });
  });
});

describe('parseCliArgs: trigger', () => {
  it('builds the admin call with every flag and field overrides', () => {
    const command = parseCliArgs([
      'trigger',
      'chat.message.sent',
      '--count',
      '3',
      '--chatters',
      '300',
      '--rate',
      '2.5',
      '--duplicate',
      '2',
      '--resend-new-id',
      '--late',
      '30',
      '--out-of-order',
      '--broadcaster',
      '200001',
      '--admin-url',
      `${ADMIN}/`,
      'content=hello world',
      'sender.user_id=100100',
      'emotes=null',
    ]);
    expect(command).toEqual({
      kind: 'admin',
      adminUrl: ADMIN,
      method: 'POST',
      path: '/trigger/chat.message.sent',
      body: {
        count: 3,
        chatters: 300,
        rate: 2.5,
        duplicates: 2,
        resend_with_new_id: true,
        delay_seconds: 30,
        out_of_order: true,
        broadcaster_user_id: 200001,
        overrides: { content: 'hello world', 'sender.user_id': 100100, emotes: null },
      },
    });
  });

  it('treats a bare --duplicate as one duplicate and sends only what was given', () => {
    expect(
      parseCliArgs(['trigger', 'kicks.gifted', '--duplicate', 'gift.amount=5'], { [ADMIN_URL_ENV]: ADMIN }),
    ).toEqual({
      kind: 'admin',
      adminUrl: ADMIN,
      method: 'POST',
      path: '/trigger/kicks.gifted',
      body: { duplicates: 1, overrides: { 'gift.amount': 5 } },
    });
    expect(parseCliArgs(['trigger', 'channel.followed', '--duplicate'])).toMatchObject({ body: { duplicates: 1 } });
  });

  it('takes the admin URL and token from the flags, then the environment, else leaves them to discovery', () => {
    const env = { [ADMIN_URL_ENV]: 'http://127.0.0.1:1234', [ADMIN_TOKEN_ENV]: 'from-env' };
    expect(parseCliArgs(['trigger', 'channel.followed'], env)).toMatchObject({
      adminUrl: 'http://127.0.0.1:1234',
      adminToken: 'from-env',
    });
    expect(
      parseCliArgs(['trigger', 'channel.followed', '--admin-url', ADMIN, '--admin-token', 'flag'], env),
    ).toMatchObject({ adminUrl: ADMIN, adminToken: 'flag' });
    const bare = parseCliArgs(['trigger', 'channel.followed'], { [ADMIN_URL_ENV]: ' ', [ADMIN_TOKEN_ENV]: '' });
    expect(bare).not.toHaveProperty('adminUrl');
    expect(bare).not.toHaveProperty('adminToken');
    expect(() => parseCliArgs(['trigger', 'channel.followed', '--admin-url', 'ftp://x'])).toThrow(/--admin-url/);
    expect(() => parseCliArgs(['stop', 'job_1', '--admin-token', 'two words'])).toThrow(/--admin-token/);
  });

  it('rejects a missing or unknown event, bad flags and bad assignments', () => {
    expect(() => parseCliArgs(['trigger'])).toThrow(/trigger: name an event/);
    expect(() => parseCliArgs(['trigger', 'chat.sent'])).toThrow(
      /unknown event "chat.sent"; expected one of chat.message.sent/,
    );
    expect(() => parseCliArgs(['trigger', 'chat.message.sent', '--count', '0'])).toThrow(/--count/);
    expect(() => parseCliArgs(['trigger', 'chat.message.sent', '--chatters', '0'])).toThrow(/--chatters/);
    expect(() => parseCliArgs(['trigger', 'chat.message.sent', '--rate', '0'])).toThrow(
      /--rate: expected a number above 0/,
    );
    expect(() => parseCliArgs(['trigger', 'chat.message.sent', '--late', '-1'])).toThrow(/--late/);
    expect(() => parseCliArgs(['trigger', 'chat.message.sent', 'oops'])).toThrow(
      'trigger: oops: expected field.path=value',
    );
    expect(() => parseCliArgs(['trigger', 'chat.message.sent', '--nope'])).toThrow(CliUsageError);
  });
});

describe('parseCliArgs: scenario, advance, stop', () => {
  it('builds scenario calls', () => {
    expect(parseCliArgs(['scenario', 'raid', '--admin-url', ADMIN, '--immediate', '--broadcaster', '100001'])).toEqual({
      kind: 'admin',
      adminUrl: ADMIN,
      method: 'POST',
      path: '/scenarios/raid',
      body: { broadcaster_user_id: 100001, immediate: true },
    });
    expect(parseCliArgs(['scenario', 'foreign-channel', '--admin-url', ADMIN, '--immediate'])).toMatchObject({
      path: '/scenarios/foreign-channel',
      body: { immediate: true },
    });
    expect(() => parseCliArgs(['scenario', 'party'])).toThrow(/scenario: expected one name of chat-storm/);
    expect(() => parseCliArgs(['scenario'])).toThrow(CliUsageError);
  });

  it('builds advance and stop calls', () => {
    expect(parseCliArgs(['advance', '86400.5', '--admin-url', ADMIN])).toEqual({
      kind: 'admin',
      adminUrl: ADMIN,
      method: 'POST',
      path: '/clock/advance',
      body: { seconds: 86400.5 },
    });
    expect(parseCliArgs(['stop', 'job_3', '--admin-url', ADMIN])).toEqual({
      kind: 'admin',
      adminUrl: ADMIN,
      method: 'DELETE',
      path: '/scenarios/job_3',
    });
    expect(() => parseCliArgs(['advance'])).toThrow('advance: expected exactly one number of seconds');
    expect(() => parseCliArgs(['advance', 'soon'])).toThrow(/advance: expected a number/);
    expect(() => parseCliArgs(['stop'])).toThrow(/stop: expected exactly one job id/);
  });
});
