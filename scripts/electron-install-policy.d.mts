/** Types for electron-install-policy.mjs (used from TypeScript tests). */
export declare const TIMEOUT_VARIABLE: string;
export declare const DEFAULT_TIMEOUT_S: number;
export interface FailureMemory {
  version: string;
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
export declare function rememberFailure(root: string, memory: FailureMemory): void;
export declare function forgetFailure(root: string): void;
export declare function shouldSkipInstall(memory: FailureMemory | null, version: string, now: number): string | null;
export declare function explainFailure(attempt: {
  timedOut: boolean;
  timeoutS: number;
  percent: number | null;
  fetchError: { url: string; code?: string } | null;
  stderr: string;
  exitCode: number | null;
}): string;
export declare function asSentence(text: string): string;
export declare function hostOf(url: string): string;
export declare function installLogPath(root: string): string;
