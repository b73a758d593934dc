/**
 * The room's modes as the bar above chat names them, in a streamer's words
 * ([Chat tools](../../../docs/chat-tools.md#the-rooms-modes-and-pinned-message)): a short label for the
 * 340 px dock and a sentence for its tooltip.
 */
import type { RoomModesView } from '../../../shared/room-state';
import { formatMinutes } from './format';

export interface ModeLabel {
  key: 'slow' | 'followers' | 'subscribers' | 'emotes';
  label: string;
  title: string;
}

/** The modes that are on, in a fixed order; none for unknown modes. */
export function modeLabels(modes: RoomModesView | null): ModeLabel[] {
  if (modes === null) {
    return [];
  }
  const labels: ModeLabel[] = [];
  if (modes.slow) {
    const s = modes.slow.seconds;
    labels.push({
      key: 'slow',
      label: s ? `Slow ${s}s` : 'Slow mode',
      title: s ? `Slow mode: each viewer can send one message every ${s} seconds` : 'Slow mode is on',
    });
  }
  if (modes.followersOnly) {
    const m = modes.followersOnly.minutes;
    labels.push({
      key: 'followers',
      label: m ? `Followers ${formatMinutes(m)}+` : 'Followers only',
      title: m
        ? `Followers-only: viewers who have followed for at least ${formatMinutes(m)} can chat`
        : 'Followers-only: only followers can chat',
    });
  }
  if (modes.subscribersOnly) {
    labels.push({ key: 'subscribers', label: 'Subscribers only', title: 'Only subscribers can chat' });
  }
  if (modes.emotesOnly) {
    labels.push({ key: 'emotes', label: 'Emotes only', title: 'Viewers can send emotes only' });
  }
  return labels;
}
