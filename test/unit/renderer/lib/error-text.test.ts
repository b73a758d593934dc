import { describe, expect, it } from 'vitest';
import {
  API_ERROR_CODES,
  AUTH_ERROR_CODES,
  CONTRACT_ERROR_CODES,
  OBS_ERROR_CODES,
  WEBHOOK_ERROR_CODES,
} from '../../../../shared/errors';
import {
  explainAdError,
  explainError,
  explainModFailure,
  explainRedemptionFailure,
} from '../../../../renderer/src/lib/error-text';
import { modAction } from '../fixtures';

describe('error-text', () => {
  it('explains errors by code', () => {
    expect(explainAdError({ code: 'Conflict', message: 'x' }, { action: 'run', live: true }).title).toMatch(
      /already running/,
    );
    expect(explainRedemptionFailure('NOT_OWNED')).toMatch(/another app/);
  });
});

describe('explainError', () => {
  const internal = 'fetchChannel: could not reach Kick (connect ECONNREFUSED 127.0.0.1:44313)';

  it("never puts main's technical message in the text of any code but a rejected input", () => {
    const codes = [
      ...API_ERROR_CODES,
      ...AUTH_ERROR_CODES,
      ...WEBHOOK_ERROR_CODES,
      ...CONTRACT_ERROR_CODES,
      ...OBS_ERROR_CODES,
    ];
    for (const code of codes) {
      const shown = explainError({ code, message: internal, details: { operation: 'fetchChannel', status: 502 } });
      if (code === 'Validation' || code === 'InvalidArgument') {
        expect(shown).toEqual({ text: internal, detail: null });
        continue;
      }
      expect(shown.text, code).not.toMatch(/fetchChannel|ECONNREFUSED|127\.0\.0\.1/);
      expect(shown.detail, code).toContain(internal);
      expect(shown.detail, code).toContain(`Greenroom code: ${code}`);
    }
  });

  it("puts the HTTP status and Kick's own message and code in the detail", () => {
    const shown = explainError({
      code: 'BadRequest',
      message: 'updateChannel: Kick refused the request',
      details: { status: 400, kickMessage: 'Channel not found', kickCode: 'CHANNEL_NOT_FOUND' },
    });
    expect(shown.text).toBe('Kick refused this request.');
    expect(shown.detail).toBe(
      "updateChannel: Kick refused the request · HTTP 400 · Kick said: Channel not found · Kick's code: CHANNEL_NOT_FOUND · Greenroom code: BadRequest",
    );
  });

  it('names the missing permission in Health’s words, Kick’s name behind Details, and words a logged moderation failure the same way', () => {
    const ban = explainError({ code: 'MissingScope', message: 'x', details: { scopes: ['moderation:ban'] } });
    expect(ban.text).toBe('To do this, sign in again and allow Greenroom to “ban and time out viewers”.');
    expect(ban.detail).toContain('Kick permission: moderation:ban');
    // Any one of several will do; a name Greenroom does not know stays behind Details only.
    const either = explainError({
      code: 'MissingScope',
      message: 'x',
      details: { scopes: ['channel:read', 'channel:future'] },
    });
    expect(either.text).toBe(
      "To do this, sign in again and allow Greenroom to “read your channel's title and category”.",
    );
    expect(either.detail).toContain('channel:read or channel:future');
    const unnamed = explainError({ code: 'MissingScope', message: 'x' }).text;
    expect(unnamed).toMatch(/^Greenroom does not have your permission for this yet\. Sign in again/);
    for (const text of [ban.text, either.text, unnamed]) {
      expect(text).not.toMatch(/:|scope/);
    }
    expect(explainModFailure(modAction({ ok: false, error: 'banUser: offline', errorCode: 'Network' }))).toEqual({
      text: expect.stringContaining('could not reach Kick'),
      detail: expect.stringContaining('banUser: offline'),
    });
    // A log written before codes were kept still hides main's words.
    expect(explainModFailure(modAction({ ok: false, error: 'banUser: offline' }))).toEqual({
      text: 'Kick refused it.',
      detail: 'banUser: offline',
    });
  });

  it("words the panel's own link failing as Greenroom's, never Kick's", () => {
    const down = explainError({ code: 'AppUnreachable', message: 'chat:send: not connected to Greenroom' });
    expect(down.text).toMatch(/^Greenroom is not running — reconnecting/);
    const hung = explainError({ code: 'AppTimeout', message: 'chat:send: no answer from Greenroom in 30 s' });
    expect(hung.text).toBe('Greenroom did not answer in time. Try again in a moment.');
    expect([down.text, hung.text].join(' ')).not.toMatch(/Kick/);
  });
});
