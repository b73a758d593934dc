/** The panel and overlay pages (→ `outDir`, default out/renderer), always a production build. */
export function buildRenderer(outDir?: string): Promise<void>;
/** Builds everything into out/. */
export function buildAll(): Promise<void>;
/** The esbuild options of the three main-process bundles. */
export function mainTargets(): Record<'main' | 'panel' | 'preload', Record<string, unknown>>;
