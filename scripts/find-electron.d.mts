/** Types for find-electron.mjs (used from TypeScript tests). */
export declare function findElectronBinary(root: string): { ok: true; path: string } | { ok: false; reason: string };
