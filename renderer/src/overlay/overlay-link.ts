/**
 * An overlay page's socket to Greenroom (docs/overlays.md): read-only, except `alert-done`. It reconnects
 * with the panel's backoff when Greenroom restarts, and stops for good when the overlay key was
 * regenerated (the URL in OBS is then no longer valid).
 */
import { backoffDelay } from '../../../shared/backoff';
import { OVERLAY_CLOSE_KEY_CHANGED, OVERLAY_WS_PATH } from '../../../shared/overlay-paths';
import type { OverlayFrame, OverlayKind } from '../../../shared/overlays';

export interface OverlayLink {
  alertDone(id: string): void;
}

export function connectOverlay(
  kind: OverlayKind,
  key: string,
  onFrame: (frame: OverlayFrame) => void,
  onStatus: (status: 'open' | 'reconnecting' | 'invalid') => void,
): OverlayLink {
  let socket: WebSocket | null = null;
  let attempt = 0;
  const url = `ws://${location.host}${OVERLAY_WS_PATH}?kind=${kind}&key=${encodeURIComponent(key)}`;

  const open = (): void => {
    const ws = new WebSocket(url);
    socket = ws;
    ws.onopen = () => {
      attempt = 0;
      onStatus('open');
    };
    ws.onmessage = (message) => {
      try {
        onFrame(JSON.parse(String(message.data)) as OverlayFrame);
      } catch {
        // A frame this page does not understand (a newer Greenroom) is skipped.
      }
    };
    ws.onclose = (event) => {
      socket = null;
      if (event.code === OVERLAY_CLOSE_KEY_CHANGED) {
        onStatus('invalid');
        return;
      }
      onStatus('reconnecting');
      attempt += 1;
      setTimeout(open, backoffDelay(attempt, { initialMs: 500, maxMs: 10_000, spread: 0.5 }, Math.random));
    };
  };
  open();

  return {
    alertDone(id) {
      socket?.send(JSON.stringify({ type: 'alert-done', id }));
    },
  };
}
