/**
 * What the preload exposes as `window.greenroom`, built over an ipcRenderer-shaped object so it can be
 * tested without Electron. Only contract channels pass (anything else never reaches ipcRenderer); events
 * arrive on one IPC channel and are fanned out here, and every `on` returns its unsubscribe function.
 * The panel builds its named API over this with `createPanelApi` (renderer/src/lib/transport.ts).
 */
import type { ErrorValue, Result } from '../../shared/errors';
// Plain channel lists, not the contract: the schemas (zod) would make the preload 460 KB.
import {
  IPC_CHANNELS,
  isEventChannel,
  isInvokeChannel,
  isSendChannel,
  type EventChannel,
} from '../../shared/ipc-channels';
import { KeyedListeners } from '../../shared/listeners';

/** The slice of ipcRenderer the bridge uses. */
export interface IpcRendererLike {
  invoke(channel: string, ...args: unknown[]): Promise<unknown>;
  send(channel: string, ...args: unknown[]): void;
  on(channel: string, listener: (event: unknown, ...args: unknown[]) => void): unknown;
}

export interface GreenroomBridge {
  invoke(channel: string, args: unknown[]): Promise<unknown>;
  send(channel: string, args: unknown[]): void;
  on(event: string, listener: (payload: unknown) => void): () => void;
}

export function createPreloadBridge(ipc: IpcRendererLike): GreenroomBridge {
  // A broken listener must not silence the rest; its error still reaches the console, on its own turn.
  const listeners = new KeyedListeners<EventChannel, [unknown]>();
  ipc.on(IPC_CHANNELS.event, (_event, name, payload) => {
    if (isEventChannel(name)) {
      listeners.emit(name, payload);
    }
  });
  return {
    invoke(channel, args) {
      if (!isInvokeChannel(channel)) {
        const error: ErrorValue = { code: 'UnknownChannel', message: 'unknown channel' };
        return Promise.resolve({ ok: false, error } satisfies Result<never>);
      }
      return ipc.invoke(IPC_CHANNELS.invoke, channel, args);
    },
    send(channel, args) {
      if (isSendChannel(channel)) {
        ipc.send(IPC_CHANNELS.send, channel, args);
      }
    },
    on(event, listener) {
      if (!isEventChannel(event) || typeof listener !== 'function') {
        return () => undefined;
      }
      return listeners.add(event, listener);
    },
  };
}
