/** Types for app-node-flags.mjs (used from TypeScript benchmarks and tests). */
export declare const APP_NODE_FLAGS: readonly string[];
export declare function electronJsFlags(): string;
export declare const APP_NODE_ENV: Readonly<Record<string, string>>;
export declare function appNodeEnv(env?: NodeJS.ProcessEnv): NodeJS.ProcessEnv;
export declare function hasAppNodeEnv(env?: NodeJS.ProcessEnv): boolean;
