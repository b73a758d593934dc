/** The panel and overlay pages (→ `outDir`, default out/renderer), always a production build; resolves with the files read. */
export function buildRenderer(outDir?: string): Promise<string[]>;
/** Builds into out/ each part whose inputs changed, or every part with `force`. */
export function buildAll(options?: { force?: boolean }): Promise<{ built: string[]; upToDate: string[] }>;
/** The one line a build prints. */
export function describeBuild(result: { built: string[]; upToDate: string[] }, ms: number): string;
/** The esbuild options of the three main-process bundles. */
export function mainTargets(): Record<'main' | 'panel' | 'preload', Record<string, unknown>>;
