/**
 * The only file that touches ipcMain ([code style point 5](../../docs/code-style.md#ipc-contract)): the contract's invoke and send channels go
 * through the gate (sender check) to the router (message check), and app events go out to our windows.
 * Registration is explicit; the returned function undoes it.
 */
import { ipcMain, type WebContents } from 'electron';
import type { EventChannel, EventPayloads } from '../../shared/ipc-contract';
import { createIpcGate, forwardEvents, IPC_CHANNELS } from './ipc-gate';
import type { Router } from './router';

export interface RegisterIpcDeps {
  router: Router;
  events: { on<E extends EventChannel>(event: E, listener: (payload: EventPayloads[E]) => void): () => void };
  isTrustedSender: (frameUrl: string) => boolean;
  /** The windows that receive events (main, pop-out chat, companion). */
  targets: () => readonly WebContents[];
  log: (line: string) => void;
}

export function registerIpc(deps: RegisterIpcDeps): () => void {
  const gate = createIpcGate(deps);
  ipcMain.handle(IPC_CHANNELS.invoke, (event, channel: unknown, args: unknown) => gate.invoke(event, channel, args));
  ipcMain.on(IPC_CHANNELS.send, (event, channel: unknown, args: unknown) => gate.send(event, channel, args));
  const stopEvents = forwardEvents(deps.events, deps.targets);
  return () => {
    ipcMain.removeHandler(IPC_CHANNELS.invoke);
    ipcMain.removeAllListeners(IPC_CHANNELS.send);
    stopEvents();
  };
}
