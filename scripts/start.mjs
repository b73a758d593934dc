#!/usr/bin/env node
// `npm start`: build what changed (scripts/build.mjs), then launch Electron. A missing Electron binary is
// fetched first through Electron's own installer, with progress and a time limit
// (scripts/install-electron.mjs). Only where that fails (offline, blocked, too slow, a bad checksum), or
// Electron cannot start, does it say so in one line and run the panel-only server instead, which prints the
// panel URL for the browser. A failed download is not tried again by later starts, only by `npm run
// install-electron` (scripts/electron-install-policy.mjs).
//
// `npm run panel` (`--panel`) goes straight to the panel server; GREENROOM_NO_ELECTRON_DOWNLOAD=1 never
// downloads Electron (the panel server runs when the binary is missing). The panel server runs on a Node that
// keeps the stream history: on an older one (the system's Node 20), on the project's Node 24
// (scripts/panel-node.mjs).
//
// The build runs in a child process so this process, which may go on to host the panel server, never
// loads Vite or esbuild.
import { spawn, spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { APP_NODE_FLAGS, appNodeEnv, electronJsFlags, hasAppNodeEnv } from './app-node-flags.mjs';
import { findElectronBinary } from './find-electron.mjs';
import { panelNode } from './panel-node.mjs';
import { asSentence, installLogPath, readFailureMemory, shouldSkipInstall } from './electron-install-policy.mjs';
import { electronVersion, installElectron } from './install-electron.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const panelOnly = process.argv.includes('--panel');
/** The line electron/main.ts prints once its main window is shown. */
const READY_LINE = 'Greenroom: window open';
const INSTEAD = 'Use the panel in your browser instead (link below).';

/** The process that started this one, read before anything can block: npm's shell, or a terminal's. */
const parentAtStart = process.ppid;
/**
 * Whether that parent has gone: read as the process's parent changing (to init or a subreaper), or as it no longer
 * running (on Windows a process keeps the parent id it was started with after that parent exits).
 */
const parentGone = () => process.ppid !== parentAtStart || !runs(parentAtStart);

/** Whether a process with this id runs: signal 0 checks without sending; one of another account's answers EPERM. */
function runs(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return error.code === 'EPERM';
  }
}
/** Ctrl-C, a stop, and the terminal closed (SIGHUP): each is passed on to the child, which stops cleanly on it. */
const STOP_SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'];
/** The signals this process passed on to its child: the child ending by one of them was asked to. */
const passedOn = new Set();

const built = spawnSync(process.execPath, [join(root, 'scripts', 'build.mjs')], { cwd: root, stdio: 'inherit' });
if (built.status !== 0) {
  console.error('Greenroom: the build failed; see above.');
  process.exit(built.status ?? 1);
}

/**
 * Calls `stop` once the process that started this one has gone. npm stops a script by signalling the shell it
 * ran it in, and that shell exits without passing the signal on: Greenroom would run on, holding its panel port,
 * with nothing left to stop it by.
 * @param {() => void} stop
 */
function stopWhenParentGone(stop) {
  // Against the parent at start: the build and the download of Node 24 block this process, and a parent that went
  // meanwhile would otherwise never be seen to go.
  if (parentGone()) {
    stop();
    return;
  }
  const timer = setInterval(() => {
    if (parentGone()) {
      clearInterval(timer);
      stop();
    }
  }, 500);
  timer.unref();
}

/**
 * Stops `child` as this process is stopped: Ctrl-C, SIGTERM and SIGHUP are passed on, and its parent going stops it
 * too.
 * @param {import('node:child_process').ChildProcess} child
 */
function stopWithThis(child) {
  const passOn = (signal) => {
    passedOn.add(signal);
    child.kill(signal);
  };
  for (const signal of STOP_SIGNALS) {
    process.on(signal, passOn);
  }
  stopWhenParentGone(() => passOn('SIGTERM'));
  // Once it has gone (Electron that never opened a window), Ctrl-C stops this process again, as by default.
  child.once('exit', () => {
    for (const signal of STOP_SIGNALS) {
      process.off(signal, passOn);
    }
  });
}

async function runPanel() {
  const entry = join(root, 'out', 'main', 'panel.js');
  const { node, line } = panelNode(root);
  if (line !== null) {
    console.log(line);
  }
  if (node === null || parentGone()) {
    return; // stopped while the build or the download ran: nothing is started
  }
  if (node === process.execPath && APP_NODE_FLAGS.every((flag) => process.execArgv.includes(flag)) && hasAppNodeEnv()) {
    // The panel server runs in this process: its own SIGTERM handler stops it.
    stopWhenParentGone(() => process.kill(process.pid, 'SIGTERM'));
    await import(pathToFileURL(entry).href);
    return;
  }
  // V8 sizes its heap and glibc its arenas as a process starts, so the app's memory settings need a Node started
  // with them (scripts/app-node-flags.mjs), and Node 24 is another program: the panel server runs in a child, this
  // process passes signals on and exits as it does.
  // The server stops by itself if this process is killed outright (electron/launch/launcher-watch.ts).
  const env = { ...appNodeEnv(), GREENROOM_LAUNCHER_PID: String(process.pid) };
  const child = spawn(node, [...APP_NODE_FLAGS, entry], { cwd: root, env, stdio: 'inherit' });
  stopWithThis(child);
  await new Promise((resolve) => {
    child.on('error', (error) => {
      console.error(`Greenroom panel could not start: ${error.message}`);
      process.exitCode = 1;
      resolve(undefined);
    });
    child.on('exit', (code, signal) => {
      process.exitCode = code ?? (signal ? 1 : 0);
      if (signal && !passedOn.has(signal)) {
        // Killed by something this process did not pass on (a crash, the kernel out of memory): the server had no
        // chance to say so itself.
        console.error(
          `Greenroom panel stopped unexpectedly (${signal}). Run ${panelOnly ? 'npm run panel' : 'npm start'} to start it again.`,
        );
      }
      resolve(undefined);
    });
  });
}

/** @param {string} line why there is no desktop window, one line in a streamer's words */
function fallBack(line) {
  console.log(`${asSentence(line)} ${INSTEAD}`);
  return runPanel();
}

/** Runs Electron; resolves null once its window is up (it then runs on its own), or a reason it failed. */
function runElectron(binary) {
  return new Promise((resolve) => {
    const child = spawn(binary, [electronJsFlags(), root], { cwd: root, stdio: ['inherit', 'pipe', 'pipe'] });
    let ready = false;
    let stdoutTail = '';
    let stderrTail = '';
    child.stdout.on('data', (chunk) => {
      process.stdout.write(chunk);
      // The line may arrive split across chunks.
      stdoutTail = (stdoutTail + chunk.toString('utf8')).slice(-400);
      if (!ready && stdoutTail.includes(READY_LINE)) {
        ready = true;
        resolve(null);
      }
    });
    child.stderr.on('data', (chunk) => {
      process.stderr.write(chunk);
      stderrTail = (stderrTail + chunk.toString('utf8')).slice(-400);
    });
    child.on('error', (error) => resolve(`${binary} could not be run: ${error.message}`));
    // 'close', not 'exit': it comes after the last output, so a ready line printed just before exiting counts.
    child.on('close', (code, signal) => {
      if (!ready) {
        const last = stderrTail.trim().split('\n').pop() ?? '';
        resolve(`it exited ${signal ?? `with code ${code}`} before opening a window${last ? `: ${last}` : ''}`);
      } else {
        process.exit(code ?? 0);
      }
    });
    stopWithThis(child);
  });
}

/** The Electron binary, downloaded first when it is missing; or the one line saying why there is none. */
async function ensureElectron() {
  const found = findElectronBinary(root);
  if (found.ok) {
    return found;
  }
  if (!found.installable) {
    return { ok: false, line: `No Electron runtime for the desktop window: ${found.reason}` };
  }
  if (process.env.GREENROOM_NO_ELECTRON_DOWNLOAD === '1') {
    return { ok: false, line: 'Electron is not downloaded and GREENROOM_NO_ELECTRON_DOWNLOAD=1 says not to.' };
  }
  const skip = shouldSkipInstall(readFailureMemory(root), electronVersion(root), Date.now());
  if (skip !== null) {
    return { ok: false, line: `Skipped downloading Electron for the desktop window: ${skip}` };
  }
  const installed = await installElectron(root);
  return installed.ok
    ? installed
    : {
        ok: false,
        line: `Could not download Electron for the desktop window: ${asSentence(installed.reason)} Details: ${installLogPath(root)}`,
      };
}

if (panelOnly) {
  await runPanel();
} else {
  const electron = await ensureElectron();
  if (parentGone()) {
    process.exit(0); // stopped while Electron downloaded: nothing is started
  }
  if (!electron.ok) {
    await fallBack(electron.line);
  } else {
    const failure = await runElectron(electron.path);
    if (failure !== null) {
      await fallBack(`Electron could not start: ${failure}`);
    }
  }
}
