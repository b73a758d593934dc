/**
 * Ad-break bookkeeping for the ads routes ([reference §3.10](../../docs/kick-wire-reference.md#310-ads) [UNCONFIRMED], [seed §2](../../docs/product-spec.md#2-resources-and-their-fields) and [§3](../../docs/product-spec.md#3-states-and-transitions)): the sliding
 * limit window, the active break, and the status object. Pure functions of the ads state and a time, so the
 * routes and the admin views agree on what "remaining" and "active" mean.
 */
import type { KickAdBreak, KickAdBreakStatus } from '../../shared/kick/resources';
import { toRfc3339 } from '../../electron/core/clock';
import type { SandboxAdBreak, SandboxAdsState } from '../state';

/**
 * A break's `status`. Kick's only observed value is `inserted` ([reference §3.10](../../docs/kick-wire-reference.md#310-ads)), which the sandbox reports
 * while the break is running so clients matching on it work; once its duration has passed it is `completed`.
 */
export type AdBreakStatus = 'inserted' | 'completed';

/** The source Kick reports for breaks started through the public API ([reference §3.10](../../docs/kick-wire-reference.md#310-ads)). */
export const PUBLIC_API_SOURCE = 'public_api';

function endsAtMs(adBreak: SandboxAdBreak): number {
  return adBreak.createdAtMs + adBreak.breakDurationSeconds * 1000;
}

export function adBreakStatus(adBreak: SandboxAdBreak, nowMs: number): AdBreakStatus {
  return nowMs < endsAtMs(adBreak) ? 'inserted' : 'completed';
}

/** The break that is running now, if any; a new one cannot start until it ends (409). */
export function activeAdBreak(ads: SandboxAdsState, nowMs: number): SandboxAdBreak | undefined {
  return ads.breaks.find((b) => b.createdAtMs <= nowMs && nowMs < endsAtMs(b));
}

/** Breaks that count against the limit at `atMs`: started within the last `period_seconds`, inclusive. */
function breaksInWindow(ads: SandboxAdsState, atMs: number): SandboxAdBreak[] {
  const windowStart = atMs - ads.limitPeriodSeconds * 1000;
  return ads.breaks.filter((b) => b.createdAtMs > windowStart && b.createdAtMs <= atMs);
}

/**
 * Breaks still allowed in the sliding window ending at `atMs`. Called with a break's own start time it
 * gives the number reported when that break was created, which an idempotent retry answers again.
 */
export function remainingAdBreaks(ads: SandboxAdsState, atMs: number): number {
  return Math.max(0, ads.limitMax - breaksInWindow(ads, atMs).length);
}

/**
 * The `ad-break-status` data: recent breaks are those in the limit window plus one still running (a
 * shortened window could otherwise hide it), newest first.
 */
export function toWireAdsStatus(ads: SandboxAdsState, nowMs: number): KickAdBreakStatus {
  const recent = new Set(breaksInWindow(ads, nowMs));
  const active = activeAdBreak(ads, nowMs);
  if (active) {
    recent.add(active);
  }
  const adBreaks: KickAdBreak[] = [...recent]
    .sort((a, b) => b.createdAtMs - a.createdAtMs)
    .map((b) => ({
      id: b.id,
      status: adBreakStatus(b, nowMs),
      break_duration_seconds: b.breakDurationSeconds,
      created_at: toRfc3339(b.createdAtMs),
      source: b.source,
    }));
  return {
    opted_in: ads.optedIn,
    ads_blocked: ads.adsBlocked,
    remaining_ad_breaks: remainingAdBreaks(ads, nowMs),
    ad_breaks: adBreaks,
    limits: { max: ads.limitMax, period_seconds: ads.limitPeriodSeconds },
    // The sandbox never runs ads on its own; only public-API breaks exist.
    auto_ads_active: false,
  };
}
