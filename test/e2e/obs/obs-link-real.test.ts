/**
 * The ObsLink contract for the real link (electron/obs/obs-websocket-link.ts) against Debian's real OBS,
 * started headless by test/helpers/obs-process.ts; skipped with one line where OBS is not installed
 * (docs/obs.md#testing-against-a-real-obs). The fake runs the same suite in
 * test/integration/obs/obs-link-fake.test.ts.
 */
import { describe, it } from 'vitest';
import { obsWebSocketLinkFactory } from '../../../electron/obs/obs-websocket-link';
import { freePort } from '../../helpers/free-port';
import { obsSkipReason, startObs } from '../../helpers/obs-process';
import { describeObsLinkContract } from '../../integration/obs/obs-link-contract';

const skip = obsSkipReason();

if (skip !== null) {
  describe('ObsLink contract: real link against real OBS', () => {
    it.skip(skip, () => undefined);
  });
} else {
  describeObsLinkContract('real link against real OBS', async () => {
    const obs = await startObs();
    return {
      link: obsWebSocketLinkFactory(),
      url: obs.url,
      password: obs.password,
      unusedUrl: `ws://127.0.0.1:${await freePort()}`,
      refuseIngest: () => undefined,
      kill: () => obs.kill(),
      start: () => obs.restart(),
      close: () => obs.close(),
    };
  });
}
