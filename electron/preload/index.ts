/**
 * The preload: the only file that touches ipcRenderer ([code style point 5](../../docs/code-style.md#ipc-contract)). It exposes the contract-only
 * bridge as `window.greenroom` and nothing else: no Node, no raw ipcRenderer, no secrets. Bundled by
 * scripts/build.mjs to a single CommonJS file (`out/preload/index.cjs`), because sandboxed preloads
 * cannot load ES modules or require anything but a few Electron modules.
 */
import { contextBridge, ipcRenderer } from 'electron';
import { createPreloadBridge } from './create-bridge';

contextBridge.exposeInMainWorld('greenroom', createPreloadBridge(ipcRenderer));
