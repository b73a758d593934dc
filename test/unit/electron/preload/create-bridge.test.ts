/** The preload bridge over a fake ipcRenderer: contract channels only, events fanned out, unsubscribes work. */
import { describe, expect, it } from 'vitest';
import { IPC_CHANNELS } from '../../../../electron/ipc/ipc-gate';
import { createPreloadBridge, type IpcRendererLike } from '../../../../electron/preload/create-bridge';

function fakeIpc() {
  const calls: unknown[][] = [];
  let onEvent: ((event: unknown, ...args: unknown[]) => void) | null = null;
  const ipc: IpcRendererLike = {
    invoke: (...args) => {
      calls.push(['invoke', ...args]);
      return Promise.resolve({ ok: true, value: 'from main' });
    },
    send: (...args) => calls.push(['send', ...args]),
    on: (channel, listener) => {
      expect(channel).toBe(IPC_CHANNELS.event);
      onEvent = listener;
    },
  };
  return { ipc, calls, emit: (...args: unknown[]) => onEvent?.({}, ...args) };
}

describe('createPreloadBridge', () => {
  it('passes contract channels to main and stops anything else in the preload', async () => {
    const { ipc, calls } = fakeIpc();
    const bridge = createPreloadBridge(ipc);
    expect(await bridge.invoke('chat:history', [])).toEqual({ ok: true, value: 'from main' });
    expect(await bridge.invoke('fs:read', ['/etc/passwd'])).toMatchObject({
      ok: false,
      error: { code: 'UnknownChannel' },
    });
    bridge.send('window:toggle-companion', []);
    bridge.send('chat:history', []);
    bridge.send('anything', []);
    expect(calls).toEqual([
      ['invoke', IPC_CHANNELS.invoke, 'chat:history', []],
      ['send', IPC_CHANNELS.send, 'window:toggle-companion', []],
    ]);
  });

  it('delivers contract events to each subscription until it unsubscribes, and ignores others', () => {
    const { ipc, emit } = fakeIpc();
    const bridge = createPreloadBridge(ipc);
    const seen: unknown[] = [];
    const listener = (payload: unknown) => seen.push(payload);
    const off1 = bridge.on('chat:deleted', listener);
    bridge.on('chat:deleted', listener);
    expect(bridge.on('not:an-event', listener)).toBeTypeOf('function');
    emit('chat:deleted', { messageId: 'a' });
    emit('not:an-event', 'x');
    expect(seen).toEqual([{ messageId: 'a' }, { messageId: 'a' }]);
    off1();
    emit('chat:deleted', { messageId: 'b' });
    expect(seen).toEqual([{ messageId: 'a' }, { messageId: 'a' }, { messageId: 'b' }]);
  });
});
