/** Types for install-electron.mjs (used from TypeScript tests). */
export declare function installElectron(
  root: string,
  options?: {
    env?: Record<string, string | undefined>;
    out?: { write(text: string): unknown; isTTY?: boolean };
    now?: () => number;
  },
): Promise<{ ok: true; path: string } | { ok: false; reason: string }>;
/** The version of the electron package, the one its installer downloads. */
export declare function electronVersion(root: string): string;
