/**
 * Every wire fact about Kick that the official docs do not confirm, in one place, so a live response that
 * disagrees is corrected here and nowhere else. Each entry names its evidence (wire reference sections
 * and confidence tags).
 */
export const WIRE_ASSUMPTIONS = {
  /**
   * Ads ([reference §3.10](../../docs/kick-wire-reference.md#310-ads), [UNCONFIRMED]): absent from Kick's docs; GormYa/KickLib and VRMacroPad agree on
   * these paths and fields, and both act on the token's own channel.
   */
  ads: {
    statusPath: '/public/v1/ads/ad-break-status',
    createPath: '/public/v1/ads/ad-break',
    enrollPath: '/public/v1/ads/enroll',
    /** The client-generated UUID; it doubles as an idempotency key, so a retry reuses it. */
    createIdField: 'id',
    createDurationField: 'break_duration_seconds',
  },
  /** `GET /public/v1/users/livestreams` ([reference §3.3](../../docs/kick-wire-reference.md#33-livestreams), [LIB]): most clients send `user_id`; one used `broadcaster_user_id`. */
  userLivestreamsParam: 'user_id',
  /**
   * v2 categories arrays ([reference §3.4](../../docs/kick-wire-reference.md#34-categories), [UNCONFIRMED]): repeated keys (KickLib, the zod client) vs
   * comma-joined (kickcom.py, gokick). Repeated keys are what every other Kick list parameter uses.
   */
  categoriesArrayEncoding: 'repeat' as 'repeat' | 'comma',
  /**
   * Revoke ([reference §2.4](../../docs/kick-wire-reference.md#24-revoke), [UNCONFIRMED]): the docs put `token` and `token_hint_type` (sic, not RFC 7009's
   * `token_type_hint`) in the query string; gokick and KickLib send a form body. We send both.
   */
  revoke: { path: '/oauth/revoke', hintParam: 'token_hint_type', sendInQuery: true, sendInBody: true },
  /** Introspection moved to id.kick.com on 2026-01-15; the api.kick.com path is deprecated but still answers. */
  introspect: { path: '/oauth/token/introspect', legacyPath: '/public/v1/token/introspect' },
  /**
   * Kick's authorize page rewrites the first `127.0.0.1` in its URL to `localhost` ([reference §2.1](../../docs/kick-wire-reference.md#21-authorize), [DOC]).
   * Putting a throwaway parameter that holds `127.0.0.1` before `redirect_uri` absorbs the rewrite.
   */
  loopbackRewrite: { decoyParam: 'redirect', decoyValue: '127.0.0.1' },
  /** Token lifetimes are undocumented ([reference §2.2](../../docs/kick-wire-reference.md#22-token)); only `expires_in` is trusted. Refresh this early. */
  refreshMarginSeconds: 60,
  /**
   * Webhook retries ([reference §5.5](../../docs/kick-wire-reference.md#55-expected-response-and-retries), [ISSUES]): Kick delivers minutes to hours late at busy times and retries
   * a failing delivery for up to a day before it removes the subscription; whether a retry carries a fresh
   * `Kick-Event-Message-Timestamp` or the first attempt's is not documented. So the replay window must
   * accept a timestamp older than that whole horizon: more than a day, with a day of margin for a delivery
   * Kick held in its queue before the first attempt. A shorter window would answer a genuine late event
   * 400, Kick would retry it into the same 400, and after a day drop the subscription.
   */
  webhookRetryHorizonSeconds: 48 * 3600,
  /**
   * When an event happened, as opposed to when Kick sent it ([reference §5.5](../../docs/kick-wire-reference.md#55-expected-response-and-retries) Lateness):
   * `Kick-Event-Message-Timestamp` is the send time, so a delay in Kick's queue does not show in it. Kick
   * added `created_at` to `chat.message.sent` (2025-07-22) for measuring that delay. Other payloads'
   * `created_at` fields are not documented as the event's time (a renewal's may be when the subscription
   * began), so only these are trusted for delivery lag.
   */
  eventTimeFields: { 'chat.message.sent': 'created_at' } as Readonly<Record<string, string>>,
  /**
   * How fast Greenroom posts chat by itself ([reference §6](../../docs/kick-wire-reference.md#6-errors-and-rate-limits) Rate limits, [ISSUES]): Kick
   * publishes no limit and has said it will not. A guess to correct here: one automatic message per 1.5 s
   * at most (a fast human chatter's pace), and after a 429 nothing for a minute or more, as betterKickAPI
   * waits for the next full minute.
   */
  chatSend: { minIntervalMs: 1500, after429: { initialMs: 60_000, maxMs: 300_000, spread: 0.5 } },
} as const;
