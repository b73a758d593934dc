#!/usr/bin/env node
// `npm start`: build, then launch Electron. Where the Electron runtime is missing or cannot start (as on a
// machine without its binary), say so in one line and run the panel-only server instead, which prints the
// panel URL. `npm run panel` (`--panel`) goes straight to the panel server.
//
// The build runs in a child process so this process, which may go on to host the panel server, never
// loads Vite or esbuild.
import { spawn, spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { findElectronBinary } from './find-electron.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const panelOnly = process.argv.includes('--panel');
/** The line electron/main.ts prints once its main window is shown. */
const READY_LINE = 'Greenroom: window open';

const built = spawnSync(process.execPath, [join(root, 'scripts', 'build.mjs')], { cwd: root, stdio: 'inherit' });
if (built.status !== 0) {
  console.error('Greenroom: the build failed; see above.');
  process.exit(built.status ?? 1);
}

async function runPanel() {
  await import(pathToFileURL(join(root, 'out', 'main', 'panel.js')).href);
}

function fallBack(reason) {
  console.log(`Electron runtime not available (${reason}); starting the panel server instead.`);
  return runPanel();
}

/** Runs Electron; resolves null once its window is up (it then runs on its own), or a reason it failed. */
function runElectron(binary) {
  return new Promise((resolve) => {
    const child = spawn(binary, [root], { cwd: root, stdio: ['inherit', 'pipe', 'pipe'] });
    let ready = false;
    let stderrTail = '';
    child.stdout.on('data', (chunk) => {
      process.stdout.write(chunk);
      if (!ready && chunk.toString('utf8').includes(READY_LINE)) {
        ready = true;
        resolve(null);
      }
    });
    child.stderr.on('data', (chunk) => {
      process.stderr.write(chunk);
      stderrTail = (stderrTail + chunk.toString('utf8')).slice(-400);
    });
    child.on('error', (error) => resolve(`${binary} could not be run: ${error.message}`));
    child.on('exit', (code, signal) => {
      if (!ready) {
        const last = stderrTail.trim().split('\n').pop() ?? '';
        resolve(`Electron exited ${signal ?? `with code ${code}`} before opening a window${last ? `: ${last}` : ''}`);
      } else {
        process.exit(code ?? 0);
      }
    });
    for (const signal of ['SIGINT', 'SIGTERM']) {
      process.on(signal, () => child.kill(signal));
    }
  });
}

if (panelOnly) {
  await runPanel();
} else {
  const electron = findElectronBinary(root);
  if (!electron.ok) {
    await fallBack(electron.reason);
  } else {
    const failure = await runElectron(electron.path);
    if (failure !== null) {
      await fallBack(failure);
    }
  }
}
