import { describe, expect, it } from 'vitest';
import { namesOfFailed } from '../../../scripts/failed-tests.mjs';

const root = '/ci/work/main';

describe('namesOfFailed', () => {
  it('names each failed test by file and full title, and nothing that passed or was skipped', () => {
    const report = {
      testResults: [
        {
          name: `${root}/test/journeys/automod.spec.ts`,
          status: 'failed',
          assertionResults: [
            { status: 'passed', title: 'a', fullName: 'journey a' },
            {
              status: 'failed',
              title: 'b',
              fullName: 'journey: auto-moderation removes a spam wave',
              failureMessages: ['\nAssertionError: expected 3 to be 4 // Object.is equality\n    at spec.ts:10:5'],
            },
            { status: 'skipped', title: 'c' },
          ],
        },
        { name: `${root}/test/unit/x.test.ts`, status: 'passed', assertionResults: [{ status: 'passed', title: 'x' }] },
      ],
    };
    expect(namesOfFailed(report, 'Node 20', root)).toEqual([
      'test/journeys/automod.spec.ts › journey: auto-moderation removes a spam wave (Node 20)\n      AssertionError: expected 3 to be 4 // Object.is equality',
    ]);
  });

  it('names a file that failed outside any test with the first line of its message', () => {
    const report = {
      testResults: [
        {
          name: `${root}/test/e2e/boom.spec.ts`,
          status: 'failed',
          message: 'Error: Cannot find module x\n    at stack',
          assertionResults: [],
        },
      ],
    };
    expect(namesOfFailed(report, 'Node 24', root)).toEqual([
      'test/e2e/boom.spec.ts (Node 24): Error: Cannot find module x',
    ]);
  });

  it('cuts a very long failure line', () => {
    const report = {
      testResults: [
        {
          name: `${root}/t.test.ts`,
          status: 'failed',
          assertionResults: [{ status: 'failed', title: 't', failureMessages: ['x'.repeat(400)] }],
        },
      ],
    };
    const [name] = namesOfFailed(report, 'Node 20', root);
    expect(name).toBe(`t.test.ts › t (Node 20)\n      ${'x'.repeat(300)}…`);
  });

  it('falls back to the title, and keeps a path outside the root whole', () => {
    const report = {
      testResults: [
        { name: '/elsewhere/t.test.ts', status: 'failed', assertionResults: [{ status: 'failed', title: 't' }] },
      ],
    };
    expect(namesOfFailed(report, 'Node 20', root)).toEqual(['/elsewhere/t.test.ts › t (Node 20)']);
  });
});
