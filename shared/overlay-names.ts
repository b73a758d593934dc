/**
 * Each overlay's name as the streamer reads it in the Overlays tab and in OBS's source list
 * (docs/overlays.md): "Set up OBS for Kick" names what it added by these.
 */
import type { OVERLAY_KINDS } from './overlay-paths';

export const OVERLAY_NAMES: Record<(typeof OVERLAY_KINDS)[number], string> = {
  alerts: 'Alert box',
  chat: 'Chat box',
  goal: 'Goal bar',
  events: 'Recent events',
};
