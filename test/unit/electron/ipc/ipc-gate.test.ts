/**
 * The Electron transport's sender check and event fan-out, without Electron: a message is handled only
 * from the main frame of our own page; bad arguments and unknown channels are then refused by the real
 * router, exactly as on the panel WebSocket.
 */
import { describe, expect, it } from 'vitest';
import { createIpcGate, forwardEvents, IPC_CHANNELS, type IpcSenderEvent } from '../../../../electron/ipc/ipc-gate';
import { createSenderCheck } from '../../../../electron/shell/trusted-sender';
import { createFakeApp } from '../../../helpers/panel-fakes';

const PAGE = 'file:///opt/Greenroom/resources/app.asar/out/renderer/index.html';
const mainFrame = (url: string): IpcSenderEvent => ({ senderFrame: { url, parent: null } });
const subFrame = (url: string): IpcSenderEvent => ({ senderFrame: { url, parent: { url: PAGE } } });

function gate() {
  const app = createFakeApp();
  return {
    app,
    gate: createIpcGate({ router: app.router, isTrustedSender: createSenderCheck(PAGE), log: (l) => app.logs.push(l) }),
  };
}

describe('createIpcGate', () => {
  it('runs a valid request from our main frame, hash routes included', async () => {
    const { app, gate: g } = gate();
    const result = await g.invoke(mainFrame(`${PAGE}#/chat`), 'chat:send', [{ content: 'hi', as: 'user' }]);
    expect(result).toEqual({ ok: true, value: { echo: [{ content: 'hi', as: 'user' }] } });
    expect(app.calls).toHaveLength(1);
  });

  it('refuses sub-frames, other pages, other files and gone frames with ForbiddenSender, running nothing', async () => {
    const { app, gate: g } = gate();
    for (const event of [
      subFrame(PAGE),
      mainFrame('https://evil.example/'),
      mainFrame('file:///tmp/evil.html'),
      mainFrame('not a url'),
      { senderFrame: null },
    ]) {
      expect(await g.invoke(event, 'chat:history', [])).toEqual({
        ok: false,
        error: { code: 'ForbiddenSender', message: 'this frame may not talk to Greenroom' },
      });
      g.send(event, 'window:pop-out-chat', []);
    }
    expect(app.calls).toEqual([]);
    expect(app.logs.filter((l) => l.startsWith('ipc: refused'))).toHaveLength(10);
    expect(app.logs).toContain(
      'ipc: refused chat:history from sub frame file:///opt/Greenroom/resources/app.asar/out/renderer/index.html',
    );
  });

  it('answers a bad argument and an unknown channel from our page through the router', async () => {
    const { app, gate: g } = gate();
    expect(await g.invoke(mainFrame(PAGE), 'mod:timeout', [{ userId: 1, minutes: 99999 }])).toMatchObject({
      ok: false,
      error: { code: 'InvalidArgument' },
    });
    expect(await g.invoke(mainFrame(PAGE), 'shell:exec', ['rm -rf /'])).toMatchObject({
      ok: false,
      error: { code: 'UnknownChannel' },
    });
    g.send(mainFrame(PAGE), 'app:open-external', [{ url: 'javascript:alert(1)' }]);
    expect(app.calls).toEqual([]);
  });
});

describe('forwardEvents', () => {
  it('sends every app event to the live windows until unsubscribed', () => {
    const { app } = gate();
    const sent: unknown[][] = [];
    const live = { isDestroyed: () => false, send: (...args: unknown[]) => sent.push(args) };
    const dead = { isDestroyed: () => true, send: () => sent.push(['dead']) };
    const stop = forwardEvents(app.events, () => [live, dead]);
    app.events.emit('chat:deleted', { messageId: 'm1' });
    expect(sent).toEqual([[IPC_CHANNELS.event, 'chat:deleted', { messageId: 'm1' }]]);
    stop();
    app.events.emit('chat:deleted', { messageId: 'm2' });
    expect(sent).toHaveLength(1);
  });
});
