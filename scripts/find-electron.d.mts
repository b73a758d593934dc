/** Types for find-electron.mjs (used from TypeScript tests). */
export declare function electronPackageDir(root: string): string;
export declare function findElectronBinary(
  root: string,
): { ok: true; path: string } | { ok: false; reason: string; installable: boolean };
