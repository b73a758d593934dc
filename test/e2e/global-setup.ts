/** Builds the renderer once for the e2e project: the panel server serves out/renderer as the app does. */
import { buildRenderer } from '../../scripts/build.mjs';

export default async function setup(): Promise<void> {
  // The same production build `npm start` makes, whatever NODE_ENV Vitest runs under.
  await buildRenderer();
}
