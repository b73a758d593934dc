/**
 * The sender check through the IPC gate, the entry every window's call goes through: the page installed
 * under a folder with `%`, spaces or non-ASCII, or in a checkout with a lower-case drive letter, is served,
 * with the URL Chromium reports after `loadFile` (docs/desktop-runtime.md#who-may-use-ipc).
 */
import { describe, expect, it } from 'vitest';
import { createIpcGate, type IpcSenderEvent } from '../../../../electron/ipc/ipc-gate';
import { createPageSenderCheck } from '../../../../electron/shell/trusted-sender';
import { createFakeApp } from '../../../helpers/panel-fakes';
import { INSTALL_PATHS, loadFileFrameUrl } from './loadfile-url-fixtures';

const mainFrame = (url: string): IpcSenderEvent => ({ senderFrame: { url, parent: null } });

describe('the IPC gate for an installed page', () => {
  it.each(INSTALL_PATHS)('runs a call from the page at $index ($platform)', async ({ platform, index }) => {
    const app = createFakeApp();
    const gate = createIpcGate({
      router: app.router,
      isTrustedSender: createPageSenderCheck({ file: index }, platform),
      log: (line) => app.logs.push(line),
    });
    const frameUrl = loadFileFrameUrl(index, platform, { hash: '/chat' });
    const result = await gate.invoke(mainFrame(frameUrl), 'chat:send', [{ content: 'hi', as: 'user' }]);
    expect(result).toEqual({ ok: true, value: { echo: [{ content: 'hi', as: 'user' }] } });
    // Another file beside it is still refused.
    const other = loadFileFrameUrl(index.replace(/index\.html$/, 'evil.html'), platform);
    expect(await gate.invoke(mainFrame(other), 'chat:send', [{ content: 'hi', as: 'user' }])).toMatchObject({
      ok: false,
      error: { code: 'ForbiddenSender' },
    });
    expect(app.calls).toHaveLength(1);
  });
});
