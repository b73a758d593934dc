import { describe, expect, it } from 'vitest';
import {
  API_ERROR_CODES,
  AUTH_ERROR_CODES,
  CONTRACT_ERROR_CODES,
  WEBHOOK_ERROR_CODES,
} from '../../../../shared/errors';
import { explainError, explainModFailure } from '../../../../renderer/src/lib/error-text';
import { lagBannerText, whyNoEvents } from '../../../../renderer/src/lib/event-reach';
import { health, modAction } from '../fixtures';

describe('explainError', () => {
  const internal = 'fetchChannel: could not reach Kick (connect ECONNREFUSED 127.0.0.1:44313)';

  it("never puts main's technical message in the text of any code but a rejected input", () => {
    const codes = [...API_ERROR_CODES, ...AUTH_ERROR_CODES, ...WEBHOOK_ERROR_CODES, ...CONTRACT_ERROR_CODES];
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

  it('names the missing permission, and words a logged moderation failure the same way', () => {
    expect(
      explainError({ code: 'MissingScope', message: 'x', details: { scopes: ['moderation:ban'] } }).text,
    ).toContain('(moderation:ban)');
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
});

describe('whyNoEvents', () => {
  it('is quiet while events can arrive, and before health is known', () => {
    expect(whyNoEvents(health(), true)).toBeNull();
    expect(whyNoEvents(null, true)).toBeNull();
    expect(whyNoEvents(health({ mode: 'sandbox', tunnel: { state: 'off' } }), true)).toBeNull();
  });

  it('names each reason on Kick', () => {
    const kick = (over: Parameters<typeof health>[0]) => whyNoEvents(health({ mode: 'kick', ...over }), true)?.text;
    expect(kick({ tunnel: { state: 'off' } })).toMatch(/tunnel is off/);
    expect(kick({ tunnel: { state: 'connecting', attempt: 2 } })).toMatch(/connecting/);
    expect(kick({ tunnel: { state: 'up', url: 'https://x.loca.lt', reachable: false } })).toMatch(/cannot reach/);
    expect(kick({ subscriptions: [{ type: 'channel.followed', state: 'active' }] })).toMatch(/not subscribed to chat/);
  });
});

describe('lagBannerText', () => {
  it('rounds to minutes from a minute on, says seconds below, and is null unless delayed', () => {
    const lag = (delayMs: number | null, state: 'delayed' | 'normal' = 'delayed') =>
      lagBannerText(health({ lag: { samples: 9, p50Ms: 45_000, p95Ms: 50_000, state, delayMs } }));
    expect(lag(14 * 60_000 + 20_000)).toMatch(/^Kick is delaying events by 14 min/);
    expect(lag(45_000)).toMatch(/by 45 s/);
    expect(lag(null)).toMatch(/by 45 s/);
    expect(lag(600_000, 'normal')).toBeNull();
  });
});
