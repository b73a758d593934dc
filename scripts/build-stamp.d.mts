/** Types for build-stamp.mjs (used from TypeScript tests). */
export interface Inputs {
  dirs: string[];
  files: string[];
}
export declare const SHARED_CONFIG: string[];
export declare function stampPath(root: string, part: string): string;
export declare function inputsFrom(root: string, readPaths: Iterable<string>, configFiles?: string[]): Inputs;
export declare function digestInputs(
  root: string,
  inputs: Inputs,
  seen?: (path: string, mtimeMs: number) => void,
): string;
export declare function digestOutputs(root: string, outputs: string[]): string;
export interface Stamp {
  version: number;
  inputs: Inputs;
  outputs: string[];
  inputDigest: string;
  outputDigest: string;
}
export declare function readStamp(root: string, part: string): Stamp | null;
export declare function isUpToDate(root: string, part: string): boolean;
export declare function clearStamp(root: string, part: string): void;
export declare function writeStamp(
  root: string,
  part: string,
  built: { inputs: Inputs; outputs: string[]; startedAt: number },
): boolean;
