/** Types for install-electron.mjs (used from TypeScript tests). */
export declare const TIMEOUT_VARIABLE: string;
export declare const DEFAULT_TIMEOUT_S: number;
export declare const RETRY_PAUSE_MS: number;
export interface FailureMemory {
  failedAt: number;
  seconds: number;
  timedOut: boolean;
  reason: string;
}
export declare function parseInstallTimeout(env: Record<string, string | undefined>): {
  seconds: number;
  warning?: string;
};
export declare function installStateDir(root: string): string;
export declare function readFailureMemory(root: string): FailureMemory | null;
export declare function shouldSkipInstall(memory: FailureMemory | null, now: number): string | null;
export declare function explainFailure(attempt: {
  timedOut: boolean;
  timeoutS: number;
  percent: number | null;
  fetchError: { url: string; code?: string } | null;
  stderr: string;
  exitCode: number | null;
}): string;
export declare function installElectron(
  root: string,
  options?: {
    env?: Record<string, string | undefined>;
    out?: { write(text: string): unknown; isTTY?: boolean };
    now?: () => number;
  },
): Promise<{ ok: true; path: string } | { ok: false; reason: string }>;
export declare function installLogPath(root: string): string;
