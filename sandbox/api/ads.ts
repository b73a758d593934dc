/**
 * Ads on api.kick.com ([reference §3.10](../../docs/kick-wire-reference.md#310-ads) [UNCONFIRMED], [seed §3](../../docs/product-spec.md#3-states-and-transitions), [§4.2](../../docs/product-spec.md#42-logical-operations), [§7](../../docs/product-spec.md#7-errors) and [§8](../../docs/product-spec.md#8-limits)): status, enroll and ad
 * break, all on the token user's own channel. The seed says these errors carry a code, so every error here
 * (other than 401/403 from the guard) is `{ data: { code, detail }, message }`.
 */
import { isUuid, createUuid } from '../../electron/core/ids';
import { LIMITS } from '../../shared/limits';
import type { SandboxContext } from '../context';
import type { Router } from '../http/router';
import { HttpAnswer, type SandboxRequest } from '../http/types';
import type { SandboxAdBreak, SandboxChannel, SandboxState } from '../state';
import { activeAdBreak, PUBLIC_API_SOURCE, remainingAdBreaks, toWireAdsStatus } from './ads-breaks';
import { authenticate } from './auth-guard';
import { bodyInt, bodyString, readJsonObject } from './params';
import { fail, ok } from './respond';

const ADS_PATH = '/public/v1/ads';
const READ_SCOPES = ['ads:read', 'ads:write'] as const;
const WRITE_SCOPES = ['ads:write'] as const;

/** The error codes the ads routes answer with (the seed names the kinds, not the codes). */
export const ADS_ERROR_CODES = {
  invalidRequest: 'INVALID_REQUEST',
  channelNotFound: 'CHANNEL_NOT_FOUND',
  channelLive: 'CHANNEL_LIVE',
  neverStreamed: 'NEVER_STREAMED',
  channelOffline: 'CHANNEL_OFFLINE',
  notEnrolled: 'NOT_ENROLLED',
  adsBlocked: 'ADS_BLOCKED',
  adBreakActive: 'AD_BREAK_ACTIVE',
  adBreakIdInUse: 'AD_BREAK_ID_IN_USE',
  limitReached: 'AD_BREAK_LIMIT_REACHED',
} as const;

/** Registers the three ads routes. */
export function registerAdsRoutes(router: Router, ctx: SandboxContext): void {
  const { state } = ctx;

  router.get(`${ADS_PATH}/ad-break-status`, (req) => {
    const token = authenticate(state, req, { token: 'user', anyScope: READ_SCOPES });
    const channel = ownChannel(state, token.userId);
    return ok(toWireAdsStatus(state.adsFor(channel.broadcasterUserId), state.now()));
  });

  // No body is read: Kick's enroll takes none, and a stray one is ignored rather than refused.
  router.post(`${ADS_PATH}/enroll`, (req) => {
    const token = authenticate(state, req, { token: 'user', anyScope: WRITE_SCOPES });
    const channel = ownChannel(state, token.userId);
    const ads = state.adsFor(channel.broadcasterUserId);
    // Enrolling sets a state; asking again once it holds succeeds, so a retry after a lost answer is safe.
    if (ads.optedIn) {
      return ok({});
    }
    if (channel.isLive) {
      fail(400, 'channel: must be offline to enroll in ads', ADS_ERROR_CODES.channelLive);
    }
    if (!channel.hasStreamed) {
      fail(400, 'channel: must have streamed at least once to enroll in ads', ADS_ERROR_CODES.neverStreamed);
    }
    ads.optedIn = true;
    return ok({});
  });

  router.post(`${ADS_PATH}/ad-break`, (req) => {
    const token = authenticate(state, req, { token: 'user', anyScope: WRITE_SCOPES });
    const { id, seconds } = readAdBreakBody(req);
    const channel = ownChannel(state, token.userId);
    const ads = state.adsFor(channel.broadcasterUserId);

    if (id !== undefined) {
      const earlier = findAdBreak(state, id);
      // The client-generated id acts as an idempotency key ([reference §3.10](../../docs/kick-wire-reference.md#310-ads)): a retry gets the first answer.
      if (earlier?.broadcasterUserId === channel.broadcasterUserId) {
        return adBreakAccepted(earlier.adBreak.id, remainingAdBreaks(ads, earlier.adBreak.createdAtMs));
      }
      if (earlier) {
        fail(409, 'id: already used for another ad break', ADS_ERROR_CODES.adBreakIdInUse);
      }
    }

    const now = state.now();
    if (!channel.isLive) {
      fail(400, 'channel: must be live to run an ad break', ADS_ERROR_CODES.channelOffline);
    }
    if (!ads.optedIn) {
      fail(400, 'channel: must be enrolled in ads (POST /public/v1/ads/enroll)', ADS_ERROR_CODES.notEnrolled);
    }
    if (ads.adsBlocked) {
      fail(409, 'channel: ads are blocked on this channel', ADS_ERROR_CODES.adsBlocked);
    }
    const active = activeAdBreak(ads, now);
    if (active) {
      fail(409, `ad break ${active.id} is still running`, ADS_ERROR_CODES.adBreakActive);
    }
    if (remainingAdBreaks(ads, now) <= 0) {
      fail(
        429,
        `ad breaks: at most ${ads.limitMax} per ${ads.limitPeriodSeconds} seconds`,
        ADS_ERROR_CODES.limitReached,
      );
    }

    const adBreak: SandboxAdBreak = {
      id: id ?? createUuid(),
      breakDurationSeconds: seconds,
      createdAtMs: now,
      source: PUBLIC_API_SOURCE,
    };
    ads.breaks.push(adBreak);
    return adBreakAccepted(adBreak.id, remainingAdBreaks(ads, now));
  });
}

/** The token user's channel; the ads routes act on no other ([reference §3.10](../../docs/kick-wire-reference.md#310-ads)). */
function ownChannel(state: SandboxState, userId: number): SandboxChannel {
  const channel = state.channels.get(userId);
  if (!channel) {
    fail(404, 'channel: the token user has no channel', ADS_ERROR_CODES.channelNotFound);
  }
  return channel;
}

/** `{ id?, break_duration_seconds }`; the shared parsers' 400s are re-issued with the ads error code. */
function readAdBreakBody(req: SandboxRequest): { id: string | undefined; seconds: number } {
  try {
    const body = readJsonObject(req);
    const id = bodyString(body, 'id');
    if (id !== undefined && !isUuid(id)) {
      fail(400, 'id: must be a UUID');
    }
    const seconds = bodyInt(body, 'break_duration_seconds', {
      required: true,
      min: LIMITS.adBreakSecondsMin,
      max: LIMITS.adBreakSecondsMax,
    });
    return { id, seconds };
  } catch (error) {
    if (error instanceof HttpAnswer && error.response.status === 400) {
      const { data } = error.response.body as { data?: unknown };
      fail(400, typeof data === 'string' ? data : undefined, ADS_ERROR_CODES.invalidRequest);
    }
    throw error;
  }
}

function findAdBreak(
  state: SandboxState,
  id: string,
): { broadcasterUserId: number; adBreak: SandboxAdBreak } | undefined {
  for (const [broadcasterUserId, ads] of state.ads) {
    const adBreak = ads.breaks.find((b) => b.id === id);
    if (adBreak) {
      return { broadcasterUserId, adBreak };
    }
  }
  return undefined;
}

function adBreakAccepted(id: string, remaining: number) {
  return ok({ id, remaining_ad_breaks: remaining }, 'Accepted');
}
