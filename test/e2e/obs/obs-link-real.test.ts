/**
 * The ObsLink contract for the real link (electron/obs/obs-websocket-link.ts) against Debian's real OBS,
 * started headless by test/helpers/obs-process.ts; skipped with one line where OBS is not installed
 * (docs/obs.md#testing-against-a-real-obs). The fake runs the same suite in
 * test/integration/obs/obs-link-fake.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { createObsWebSocketLink, obsWebSocketLinkFactory } from '../../../electron/obs/obs-websocket-link';
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

  describe('the real link and the passwords a streamer may set in OBS', () => {
    it('connects with a password of accents, symbols and quotes, and refuses it spelt otherwise', async () => {
      const password = 'pässwörd ü✓ "quoted" \\back =eq; #hash';
      const obs = await startObs({ password });
      try {
        const link = createObsWebSocketLink();
        await expect(link.connect({ url: obs.url, password })).resolves.toMatchObject({ rpcVersion: 1 });
        await link.close();
        // The same letters, decomposed (NFD): a different password to OBS.
        const other = createObsWebSocketLink();
        await expect(other.connect({ url: obs.url, password: password.normalize('NFD') })).rejects.toMatchObject({
          failure: 'wrong-password',
        });
      } finally {
        await obs.close();
      }
    });

    it('connects to an OBS that asks for no password, with or without one saved', async () => {
      const obs = await startObs({ password: null });
      try {
        for (const password of [null, 'saved-but-not-asked']) {
          const link = createObsWebSocketLink();
          await expect(link.connect({ url: obs.url, password })).resolves.toMatchObject({ rpcVersion: 1 });
          await link.close();
        }
      } finally {
        await obs.close();
      }
    });
  });
}
