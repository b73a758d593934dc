/**
 * The ObsLink contract against the fake OBS (test/helpers/fake-obs.ts), as Debian ships OBS (no browser
 * source) and as Windows and macOS do (with one). The same suite runs against the real OBS in
 * test/e2e/obs/obs-link-real.test.ts.
 */
import { FakeObs } from '../../helpers/fake-obs';
import { describeObsLinkContract } from './obs-link-contract';

for (const browserSource of [false, true]) {
  describeObsLinkContract(`fake OBS ${browserSource ? 'with' : 'without'} a browser source`, () => {
    const fake = new FakeObs({ browserSource });
    return Promise.resolve({
      link: fake.link,
      url: fake.url,
      password: fake.password,
      unusedUrl: 'ws://127.0.0.1:1',
      refuseIngest: () => {
        fake.ingestReachable = false;
      },
      kill: () => Promise.resolve(fake.kill()),
      start: () => Promise.resolve(fake.start()),
      close: () => Promise.resolve(),
    });
  });
}
