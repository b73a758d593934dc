import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openLogFile } from '../../../../electron/core/log-file';
import { createLogger, logLevelFrom, parseLine } from '../../../../electron/core/logger';
import { learnStoredSecret, REDACTED } from '../../../../electron/core/logger-redact';

const clock = { now: () => Date.UTC(2026, 10, 27, 23, 0, 0) };
const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach((dir) => rmSync(dir, { recursive: true, force: true })));

function logged(level: 'debug' | 'info' = 'info') {
  const echoed: string[] = [];
  const logger = createLogger({ level, clock, echo: (line) => echoed.push(line) });
  const records = (): Record<string, unknown>[] =>
    logger.recentLines().map((line) => JSON.parse(line) as Record<string, unknown>);
  return { logger, echoed, records };
}

describe('the logger', () => {
  it('writes levels and fields as JSON, and the plain line to the terminal', () => {
    const { logger, echoed, records } = logged();
    logger.warn('webhooks: key refresh failed', { status: 503 });
    expect(records()).toEqual([
      { level: 'warn', time: '2026-11-27T23:00:00.000Z', msg: 'webhooks: key refresh failed', status: 503 },
    ]);
    expect(echoed).toEqual(['webhooks: key refresh failed {"status":503}']);
    expect(logger.recentErrors()).toEqual([
      '2026-11-27T23:00:00.000Z warn: webhooks: key refresh failed {"status":503}',
    ]);
  });

  it('leaves debug out unless asked for', () => {
    const quiet = logged();
    quiet.logger.debug('every duplicate');
    quiet.logger.line('webhooks: debug: duplicate delivery {"id":"m1"}');
    expect(quiet.records()).toEqual([]);
    expect(quiet.echoed).toEqual([]);
    expect(quiet.logger.enabled('debug')).toBe(false);
    const loud = logged('debug');
    loud.logger.line('webhooks: debug: duplicate delivery {"id":"m1"}');
    expect(loud.records()[0]).toMatchObject({ level: 'debug', msg: 'webhooks: duplicate delivery', id: 'm1' });
  });

  it('reads the level from GREENROOM_LOG_LEVEL, and says when the value is unknown', () => {
    expect(logLevelFrom({})).toEqual({ level: 'info' });
    expect(logLevelFrom({ GREENROOM_LOG_LEVEL: 'DEBUG' })).toEqual({ level: 'debug' });
    const odd = logLevelFrom({ GREENROOM_LOG_LEVEL: 'loud' });
    expect(odd.level).toBe('info');
    expect(odd.warning).toContain('not one of debug, info, warn, error');
  });

  it('keeps the level and fields of a one-line log in the receiver form, and finds failures in the rest', () => {
    expect(parseLine('webhooks: warn: refused a delivery {"reason":"signature","status":401}')).toEqual({
      level: 'warn',
      message: 'webhooks: refused a delivery',
      fields: { reason: 'signature', status: 401 },
    });
    expect(parseLine('webhooks: error: public key fetch')).toEqual({
      level: 'error',
      message: 'webhooks: public key fetch',
    });
    expect(parseLine('app: stopping failed: EIO')).toEqual({ level: 'warn', message: 'app: stopping failed: EIO' });
    expect(parseLine('panel: SIGINT, stopping')).toEqual({ level: 'info', message: 'panel: SIGINT, stopping' });
    expect(parseLine('webhooks: warn: odd {not json}')).toEqual({ level: 'warn', message: 'webhooks: odd {not json}' });
  });

  it('writes lines logged before the file opened into it, then each new one', () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'greenroom-logger-'));
    dirs.push(dataDir);
    const { logger } = logged();
    logger.info('before');
    const file = openLogFile({ dataDir, nowMs: clock.now, notice: () => undefined })!;
    logger.attachFile(file);
    logger.info('after');
    const lines = readFileSync(file.path, 'utf8').trim().split('\n');
    expect(lines.map((line) => (JSON.parse(line) as { msg: string }).msg)).toEqual(['before', 'after']);
    expect(logger.recentLines(1)).toEqual([lines[1]]);
    file.close();
  });
});

describe('redaction at the source', () => {
  // One value per kind the app holds; each must be replaced in the file's JSON and on the terminal.
  const SECRETS = {
    'user access token': 'ZTk2YjQ1NjctYWNjZXNzLXRva2Vu',
    'refresh token': 'cmVmcmVzaC10b2tlbi12YWx1ZQ',
    'app token': 'YXBwLXRva2VuLXZhbHVlLTEyMw',
    'client secret': 'cs_9f8e7d6c5b4a3928171605f4e3d2c1b0',
    'stream key': 'sk_us-west-2_AbCdEfGh1234',
    'overlay key': 'ovk-3b1f8c2e9d7a4f60',
    'panel token': 'pt-7e4c2a9b1d3f5e8a0c6b',
    'OBS password': 'hunter2"and\\more',
  };

  it.each(Object.entries(SECRETS))('replaces the %s in messages, fields and the terminal', (_kind, secret) => {
    const { logger, echoed } = logged();
    logger.secrets.add(secret);
    logger.info(`sent ${secret} to Kick`, {
      nested: { value: secret, url: `https://x.test/?v=${encodeURIComponent(secret)}` },
    });
    logger.line(`obs: connect failed with ${secret}`);
    const everything = [...logger.recentLines(), ...echoed, ...logger.recentErrors()].join('\n');
    expect(everything).not.toContain(secret);
    expect(everything).not.toContain(JSON.stringify(secret).slice(1, -1));
    expect(everything).not.toContain(encodeURIComponent(secret));
    expect(everything).toContain(REDACTED);
  });

  it('learns the tokens inside a stored token record, not its other fields', () => {
    const { logger, records } = logged();
    learnStoredSecret(
      logger.secrets,
      JSON.stringify({
        accessToken: SECRETS['user access token'],
        refreshToken: SECRETS['refresh token'],
        tokenType: 'Bearer',
        scope: 'chat:write',
      }),
    );
    logger.info(`${SECRETS['user access token']} / ${SECRETS['refresh token']} with scope chat:write`);
    expect(records()[0]?.msg).toBe(`${REDACTED} / ${REDACTED} with scope chat:write`);
  });

  it('replaces secrets it was never told by their shape: Bearer headers and secret-named parameters and fields', () => {
    const { logger } = logged();
    logger.info('GET /channels Authorization: Bearer eyJhbGciOi.payload.sig');
    logger.info('POST /oauth/token grant_type=refresh_token&refresh_token=r3fr3sh&client_secret=s3cr3t');
    logger.info('overlay at http://127.0.0.1:4000/overlay/alerts?key=abcdef123&x=1 and panel ?token=tok999');
    logger.info('kick answered', { access_token: 'a-c-c-e-s-s', password: 'pw12', stream_key: 'sk_live_1' });
    const text = logger.recentLines().join('\n');
    for (const leaked of [
      'eyJhbGciOi',
      'r3fr3sh',
      's3cr3t',
      'abcdef123',
      'tok999',
      'a-c-c-e-s-s',
      'pw12',
      'sk_live_1',
    ]) {
      expect(text).not.toContain(leaked);
    }
    expect(text).toContain('grant_type=refresh_token');
    expect(text).toContain('&x=1');
  });

  it('redacts a line read back from the file that was written before the secret was known', () => {
    const { logger } = logged();
    logger.info(`token is ${SECRETS['panel token']}`);
    logger.secrets.add(SECRETS['panel token']);
    expect(logger.recentLines().join('\n')).not.toContain(SECRETS['panel token']);
  });
});

describe('redaction keeps JSON readable', () => {
  it('leaves a secret-named field that holds null, a boolean or a number as it is', () => {
    const { logger } = logged();
    const text = JSON.stringify({ clientSecret: null, hasToken: true, keyCount: 3, password: 'pw-9876' }, null, 2);
    const redacted = logger.secrets.redact(text);
    expect(JSON.parse(redacted)).toEqual({ clientSecret: null, hasToken: true, keyCount: 3, password: REDACTED });
  });
});
