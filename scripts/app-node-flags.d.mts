/** Types for app-node-flags.mjs (used from TypeScript benchmarks and tests). */
export declare const APP_NODE_FLAGS: readonly string[];
export declare function electronJsFlags(): string;
