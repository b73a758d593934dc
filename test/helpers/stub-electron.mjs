/**
 * A stand-in for the `electron` module, so the desktop entry (electron/main.ts, bundled as for
 * `npm run build`) runs under plain Node where no Electron binary can be downloaded. It keeps Electron's
 * behaviour where a test depends on it and records each call a test asserts on, one JSON line per call, in
 * the file named by GREENROOM_STUB_ELECTRON_RECORD:
 * - `app.requestSingleInstanceLock()` is per `userData` folder, as Electron's is: a lock file in the folder
 *   `userData` names at the time of the call, held while the process lives;
 * - `app.quit()` runs the `before-quit` listeners (which may defer it), then exits 0; `app.exit(code)` exits;
 * - `dialog.showErrorBox(title, content)`, `app.setPath`, `app.setAppUserModelId` and windows' `loadFile`
 *   are recorded.
 * Loaded in place of `electron` by stub-electron-hooks.mjs. Windows never paint: `ready-to-show` fires at once.
 */
import { EventEmitter } from 'node:events';
import { appendFileSync, mkdirSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const recordFile = process.env.GREENROOM_STUB_ELECTRON_RECORD;

function record(call, ...args) {
  if (recordFile) {
    appendFileSync(recordFile, `${JSON.stringify({ call, args, pid: process.pid })}\n`);
  }
}

const paths = new Map([
  ['home', process.env.GREENROOM_STUB_ELECTRON_HOME ?? process.cwd()],
  // The system's default data folder: the same for every copy a test starts, as on a real machine.
  ['userData', join(process.env.GREENROOM_STUB_ELECTRON_HOME ?? process.cwd(), 'default-user-data')],
]);

function isAlive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Electron's lock: one per userData folder, free again when its holder is gone. */
function takeLock(dir) {
  mkdirSync(dir, { recursive: true });
  const file = join(dir, 'stub-singleton-lock');
  try {
    const holder = Number(readFileSync(file, 'utf8'));
    if (holder !== process.pid && isAlive(holder)) {
      return false;
    }
    rmSync(file, { force: true });
  } catch {
    // No lock yet.
  }
  try {
    const fd = openSync(file, 'wx');
    writeFileSync(fd, String(process.pid));
    return true;
  } catch {
    return false;
  }
}

class StubApp extends EventEmitter {
  isPackaged = false;
  #quitting = false;

  getPath(name) {
    return paths.get(name) ?? join(paths.get('home'), name);
  }
  setPath(name, value) {
    record('app.setPath', name, value);
    paths.set(name, value);
  }
  getAppPath() {
    return process.cwd();
  }
  getVersion() {
    return '0.0.0-stub';
  }
  getName() {
    return 'Greenroom';
  }
  requestSingleInstanceLock() {
    const dir = this.getPath('userData');
    const got = takeLock(dir);
    record('app.requestSingleInstanceLock', dir, got);
    return got;
  }
  setAppUserModelId(id) {
    record('app.setAppUserModelId', id);
  }
  whenReady() {
    return Promise.resolve();
  }
  quit() {
    record('app.quit');
    if (this.#quitting) {
      return;
    }
    let prevented = false;
    this.emit('before-quit', { preventDefault: () => (prevented = true) });
    if (!prevented) {
      this.#quitting = true;
      process.exit(0);
    }
  }
  exit(code = 0) {
    record('app.exit', code);
    process.exit(code);
  }
}

export const app = new StubApp();
// A test stops a copy with SIGTERM: the same path as "Quit Greenroom" in the tray.
process.on('SIGTERM', () => app.quit());

export const dialog = {
  showErrorBox(title, content) {
    record('dialog.showErrorBox', title, content);
  },
};

class StubWebContents extends EventEmitter {
  static #next = 1;
  id = StubWebContents.#next++;
  setWindowOpenHandler() {}
  send() {}
  isDestroyed() {
    return false;
  }
  reload() {
    record('webContents.reload', this.id);
  }
}

export class BrowserWindow extends EventEmitter {
  webContents = new StubWebContents();
  #bounds;
  constructor(options) {
    super();
    this.#bounds = { x: options.x ?? 0, y: options.y ?? 0, width: options.width, height: options.height };
    record('BrowserWindow', options.title);
    app.emit('web-contents-created', {}, this.webContents);
  }
  once(event, listener) {
    super.once(event, listener);
    if (event === 'ready-to-show') {
      setImmediate(() => this.emit('ready-to-show'));
    }
    return this;
  }
  loadFile(file, options) {
    record('BrowserWindow.loadFile', file, options ?? {});
    return Promise.resolve();
  }
  loadURL(url) {
    record('BrowserWindow.loadURL', url);
    return Promise.resolve();
  }
  isDestroyed() {
    return false;
  }
  isMinimized() {
    return false;
  }
  isMaximized() {
    return false;
  }
  getNormalBounds() {
    return this.#bounds;
  }
  setContentProtection() {}
  show() {}
  focus() {}
  restore() {}
  maximize() {}
  close() {
    this.emit('close');
    this.emit('closed');
  }
}

export class Tray extends EventEmitter {
  setImage() {}
  setToolTip() {}
  setContextMenu() {}
}

export class Notification extends EventEmitter {
  static isSupported() {
    return false;
  }
  show() {}
}

export const Menu = { buildFromTemplate: (template) => ({ template }) };
export const nativeImage = { createEmpty: () => ({}), createFromBuffer: () => ({}) };
export const clipboard = { writeText: () => Promise.resolve() };
export const screen = { getAllDisplays: () => [{ workArea: { x: 0, y: 0, width: 1920, height: 1080 } }] };
export const shell = { openExternal: () => Promise.resolve(), openPath: () => Promise.resolve('') };

const handlers = new Map();
export const ipcMain = Object.assign(new EventEmitter(), {
  handle: (channel, handler) => handlers.set(channel, handler),
  removeHandler: (channel) => handlers.delete(channel),
});

/** Reversible, not secret: the stub's secrets are test values in a temp folder. */
export const safeStorage = {
  isAsyncEncryptionAvailable: () => Promise.resolve(true),
  getSelectedStorageBackend: () => 'gnome_libsecret',
  encryptStringAsync: (plain) => Promise.resolve(Buffer.from(`stub:${plain}`, 'utf8')),
  decryptStringAsync: (cipher) => Promise.resolve({ result: cipher.toString('utf8').slice(5), shouldReEncrypt: false }),
};

/** Electron's scheme handlers: recorded; `net.fetch` is Node's fetch, which reads no file: a test asserts the registration. */
export const protocol = {
  handle(scheme) {
    record('protocol.handle', scheme);
  },
};
export const net = { fetch: (request) => fetch(request) };

export const session = {
  defaultSession: {
    setPermissionRequestHandler() {},
    webRequest: { onHeadersReceived() {} },
  },
};

export default {
  app,
  BrowserWindow,
  clipboard,
  dialog,
  ipcMain,
  Menu,
  nativeImage,
  net,
  Notification,
  protocol,
  safeStorage,
  screen,
  session,
  shell,
  Tray,
};
