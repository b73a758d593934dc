/** `node --import ./stub-electron-register.mjs app.js`: `electron` is the stand-in in that process. */
import { register } from 'node:module';

register('./stub-electron-hooks.mjs', import.meta.url);
