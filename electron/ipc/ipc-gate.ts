/**
 * The Electron half of "validate every message twice" ([code style point 6](../../docs/code-style.md#ipc-contract)), without importing Electron:
 * a message is handled only when it comes from the main frame of our own page (not a sub-frame, not
 * another page the window was tricked into loading); then the router validates what it says. Also fans
 * the app's events out to our windows. `register.ts` wires this to ipcMain.
 */
import type { AppEvents } from '../core/app-events';
import type { Router } from './router';
import type { ErrorValue, Result } from '../../shared/errors';
import { EVENT_CHANNELS, IPC_CHANNELS } from '../../shared/ipc-channels';

export { IPC_CHANNELS };

/** The parts of an Electron IPC event the gate reads. */
export interface IpcSenderEvent {
  /** Null when the frame navigated away or was destroyed before the message was handled. */
  readonly senderFrame: { readonly url: string; readonly parent: unknown } | null;
}

export interface IpcGateDeps {
  router: Router;
  /** True for our renderer's URL (electron/shell/trusted-sender.ts). */
  isTrustedSender: (frameUrl: string) => boolean;
  log: (line: string) => void;
}

export interface IpcGate {
  invoke(event: IpcSenderEvent, channel: unknown, args: unknown): Promise<Result<unknown>>;
  send(event: IpcSenderEvent, channel: unknown, args: unknown): void;
}

const FORBIDDEN: ErrorValue = { code: 'ForbiddenSender', message: 'this frame may not talk to Greenroom' };

export function createIpcGate({ router, isTrustedSender, log }: IpcGateDeps): IpcGate {
  const trusted = (event: IpcSenderEvent, channel: unknown): boolean => {
    const frame = event.senderFrame;
    // `parent === null` is the main frame (VS Code's check); comparing wrapper objects is not guaranteed.
    const ok = frame !== null && frame.parent === null && isTrustedSender(frame.url);
    if (!ok) {
      const where = frame
        ? `${frame.parent === null ? 'main' : 'sub'} frame ${frame.url.slice(0, 100)}`
        : 'a gone frame';
      log(`ipc: refused ${typeof channel === 'string' ? channel.slice(0, 60) : typeof channel} from ${where}`);
    }
    return ok;
  };
  return {
    invoke: (event, channel, args) =>
      trusted(event, channel) ? router.invoke(channel, args) : Promise.resolve({ ok: false, error: FORBIDDEN }),
    send: (event, channel, args) => {
      if (trusted(event, channel)) {
        router.send(channel, args);
      }
    },
  };
}

/** A window's web contents as the event fan-out sees it. */
export interface EventTarget {
  isDestroyed(): boolean;
  send(channel: string, ...args: unknown[]): void;
}

/** Forwards every app event to the current windows; returns the unsubscribe function. */
export function forwardEvents(events: AppEvents, targets: () => readonly EventTarget[]): () => void {
  const unsubscribes = EVENT_CHANNELS.map((event) =>
    events.on(event, (payload: unknown) => {
      for (const target of targets()) {
        if (!target.isDestroyed()) {
          target.send(IPC_CHANNELS.event, event, payload);
        }
      }
    }),
  );
  return () => unsubscribes.forEach((unsubscribe) => unsubscribe());
}
