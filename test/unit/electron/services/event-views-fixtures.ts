/**
 * What the event-views.test files share: their fixtures and helpers.
 */
import { expect } from 'vitest';
import type { KickEventPayloads } from '../../../../shared/kick/events';
import type { KickEventType } from '../../../../shared/kick/scopes';
import { AdjustableClock } from '../../../../electron/core/clock';
import { SandboxState } from '../../../../sandbox/state';
import { createWorld, FIRST_VIEWER_USER_ID } from '../../../../sandbox/world';
import { toFeedItem } from '../../../../electron/services/event-views';
import { parseKickEvent } from '../../../../electron/webhooks/events/parse-event';
import type { KickEvent } from '../../../../electron/webhooks/events/types';

export const NOW = Date.parse('2026-03-01T12:00:00.000Z');
export const PIXELPANDA = FIRST_VIEWER_USER_ID; // 'pixelpanda'
export const NIGHTOWL = FIRST_VIEWER_USER_ID + 1; // 'nightowl_tv'

export function world(): SandboxState {
  const state = new SandboxState(new AdjustableClock({ now: () => NOW }), { accessSeconds: 3600, codeSeconds: 600 });
  createWorld(state, { assetBaseUrl: 'http://127.0.0.1:9' });
  return state;
}

export const fx = {} as {
  counter: number;
};
fx.counter = 0;
/** Wraps a payload the way the receiver does: a journal record, parsed and validated by the real parser. */
export function event<T extends KickEventType>(
  type: T,
  payload: KickEventPayloads[T],
  timestamp = '2026-03-01T12:00:05Z',
): KickEvent {
  const parsed = parseKickEvent({
    messageId: `01MSG${String(++fx.counter).padStart(21, '0')}`,
    subscriptionId: 'sub-1',
    type,
    version: '1',
    timestamp,
    receivedAtMs: NOW + 9000,
    bodyHash: '',
    body: JSON.stringify(payload),
  });
  expect(parsed.kind, parsed.kind === 'unknown' ? parsed.reason : '').toBe('known');
  return parsed;
}

export const textOf = (e: KickEvent): string => toFeedItem(e).text;
