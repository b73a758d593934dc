/**
 * The desktop entry (electron/main.ts) as built, run under Node with a stand-in for Electron that records
 * its calls (test/helpers/stub-electron.mjs): a start-up failure shows the one-line reason in a native error
 * box and exits 1; the single-instance lock belongs to the data folder, so two copies with their own
 * GREENROOM_DATA_DIR both run (docs/desktop-runtime.md#a-start-up-failure,
 * docs/desktop-runtime.md#one-copy-per-data-folder).
 */
import { createServer, type Server } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../../helpers/free-port';
import {
  buildDesktopEntry,
  type DesktopCopy,
  startDesktopCopy,
  stopDesktopCopy,
  stubCalls,
} from '../../helpers/stub-electron-run';
import { tempDir } from '../../helpers/temp-dir';

const QUIET = { GREENROOM_PANEL_PORT: '0', GREENROOM_WEBHOOK_PORT: '0', GREENROOM_SANDBOX_ACTIVITY: 'off' };
const START_MS = 45_000;

let bundle: { file: string; remove: () => void };
const running: DesktopCopy[] = [];

beforeAll(async () => {
  bundle = await buildDesktopEntry();
}, 60_000);

afterAll(async () => {
  await Promise.all(running.map(stopDesktopCopy));
  bundle.remove();
});

describe('the desktop app with a stand-in Electron', () => {
  it(
    'shows the one-line reason in a native box when the webhook port is taken, then exits 1',
    async () => {
      const home = tempDir('greenroom-desktop-');
      const record = join(home, 'calls.jsonl');
      const taken = await freePort();
      const blocker: Server = createServer();
      await new Promise<void>((resolve) => blocker.listen(taken, '127.0.0.1', resolve));
      try {
        const copy = startDesktopCopy(
          bundle.file,
          {
            ...QUIET,
            GREENROOM_WEBHOOK_PORT: String(taken),
            GREENROOM_DATA_DIR: join(home, 'data'),
            GREENROOM_STUB_ELECTRON_HOME: home,
          },
          record,
        );
        running.push(copy);
        expect(await copy.exited, copy.output()).toBe(1);
        const boxes = stubCalls(record).filter((c) => c.call === 'dialog.showErrorBox');
        expect(boxes).toHaveLength(1);
        const [title, content] = boxes[0]!.args as [string, string];
        expect(title).toBe('Greenroom could not start');
        expect(content).toBe(
          `The webhook port ${taken} is in use; set GREENROOM_WEBHOOK_PORT to another port, and point your own ` +
            'tunnel or proxy there if you use one (0 picks a free one)',
        );
        // The same line the panel-only entry prints, in the log too.
        expect(copy.output()).toContain(`Greenroom could not start: the webhook port ${taken} is in use`);
        expect(stubCalls(record).some((c) => c.call === 'app.exit' && c.args[0] === 1)).toBe(true);
      } finally {
        await new Promise<void>((resolve) => blocker.close(() => resolve()));
      }
    },
    START_MS,
  );

  it(
    'runs two copies with different data folders side by side; a third on the same folder quits',
    async () => {
      const home = tempDir('greenroom-desktop-');
      const record = join(home, 'calls.jsonl');
      const start = (data: string): DesktopCopy => {
        const copy = startDesktopCopy(
          bundle.file,
          { ...QUIET, GREENROOM_DATA_DIR: join(home, data), GREENROOM_STUB_ELECTRON_HOME: home },
          record,
        );
        running.push(copy);
        return copy;
      };
      const first = start('first');
      expect(await first.windowOpen, first.output()).toBe(true);
      const second = start('second');
      expect(await second.windowOpen, second.output()).toBe(true);
      for (const copy of [first, second]) {
        const calls = stubCalls(record, copy.child.pid);
        expect(calls.some((c) => c.call === 'app.quit')).toBe(false);
        const lock = calls.find((c) => c.call === 'app.requestSingleInstanceLock');
        expect(lock?.args[1]).toBe(true);
        expect(copy.child.exitCode).toBeNull();
        // The page is served with the emote host's image policy (docs/desktop-runtime.md#emote-images-in-the-desktop-window).
        expect(calls.filter((c) => c.call === 'protocol.handle').map((c) => c.args)).toEqual([['file']]);
        // Windows only: the installer's shortcut id (docs/desktop-runtime.md#notifications-on-windows).
        expect(calls.some((c) => c.call === 'app.setAppUserModelId')).toBe(process.platform === 'win32');
        const order = calls.map((c) => c.call);
        expect(order.indexOf('app.setPath')).toBeLessThan(order.indexOf('app.requestSingleInstanceLock'));
      }
      // The same folder as the first: the lock is taken, this copy hands over and quits.
      const third = start('first');
      expect(await third.exited).toBe(0);
      expect(third.output()).not.toContain('Greenroom: window open');
      expect(stubCalls(record, third.child.pid).map((c) => c.call)).toContain('app.quit');
      expect(await stopDesktopCopy(first)).toBe(0);
      expect(await stopDesktopCopy(second)).toBe(0);
    },
    START_MS * 2,
  );
});
