/**
 * The OBS actions in the automation file ([Import and export](../../../docs/automod.md#import-and-export)):
 * exported and imported with the rest, and a hostile file refused at the action it concerns, in the
 * streamer's words with the limit, before anything is sent.
 */
import { describe, expect, it } from 'vitest';
import { planAutomationImport, readAutomationFile } from '../../../shared/automation-import';
import { INVOKE_SCHEMAS } from '../../../shared/ipc-contract';
import { DEFAULT_OBS_ACTIONS } from '../../../shared/obs-actions';
import { accepted, bytesOf, exportFile, refused, streamerSetup } from './automation-fixtures';

/** The file as bytes, read and planned as the panel does. */
function plan(file: unknown, current = streamerSetup()) {
  const read = readAutomationFile(bytesOf(JSON.stringify(file)));
  if (!read.ok) {
    return read;
  }
  return planAutomationImport(read.value, current);
}

const reward = (over: Record<string, unknown> = {}) => ({
  rewardId: 'rw-1',
  rewardTitle: 'Confetti',
  source: 'Confetti',
  scene: 'Main',
  seconds: 10,
  ...over,
});

describe('OBS actions in the automation file', () => {
  it('carries them from one install to another: the plan sends them as exported', () => {
    const from = streamerSetup();
    const to = { ...streamerSetup(), obsActions: structuredClone(DEFAULT_OBS_ACTIONS) };
    const result = accepted(plan(exportFile(from), to));
    expect(result.patch.obsActions).toEqual(from.obsActions);
    expect(result.changes).toEqual([
      'OBS scene for ad breaks: off → on, to Ads',
      'OBS sources for rewards: 0 rewards, 0 on → 1 reward, 1 on',
    ]);
    expect(INVOKE_SCHEMAS['settings:update'].safeParse([result.patch]).success).toBe(true);
  });

  it('keeps the OBS actions of a file made before they existed', () => {
    const current = streamerSetup();
    const { obsActions: _none, ...older } = exportFile(current, { chatBot: { timers: [] } });
    const result = accepted(plan(older, current));
    expect(result.patch.obsActions).toBeUndefined();
    expect(result.kept).toContain('OBS scene for ad breaks');
  });

  const longName = 'S'.repeat(201);
  it.each([
    [
      'a scene name over the limit',
      { adBreak: { enabled: true, scene: longName } },
      /^OBS scene for ad breaks in this file: at most 200 characters\. Nothing was changed\.$/,
    ],
    [
      'a source name over the limit',
      { rewards: [reward({ source: longName })] },
      /^OBS sources for rewards in this file, number 1: at most 200 characters\./,
    ],
    [
      '0 seconds',
      { rewards: [reward({ seconds: 0 })] },
      /^OBS sources for rewards in this file, number 1: at least 1\./,
    ],
    [
      '301 seconds',
      { rewards: [reward({ seconds: 301 })] },
      /^OBS sources for rewards in this file, number 1: at most 300\./,
    ],
    ['1e9 seconds', { rewards: [reward({ seconds: 1e9 })] }, /: at most 300\./],
    [
      'seconds written as text',
      { rewards: [reward({ seconds: '10' })] },
      /number 1: not in the form Greenroom exports/,
    ],
    ['a source of spaces only', { rewards: [reward({ source: '   ' })] }, /number 1: a text is empty\./],
    ['a scene of invisible spaces only', { goLive: { enabled: true, scene: '\u2003\u3000' } }, /choose the scene/],
    ['half a second', { rewards: [reward({ seconds: 1.5 })] }, /number 1: /],
    [
      '10,000 reward actions',
      { rewards: Array.from({ length: 10_000 }, (_, i) => reward({ rewardId: `r${i}` })) },
      /^OBS sources for rewards in this file: at most 20 \(it has 10,000\)\./,
    ],
    [
      'a reward with two actions',
      { rewards: [reward(), reward({ source: 'Other' })] },
      /number 2: reward: this reward already has an action/,
    ],
    [
      'an action on with no scene',
      { goLive: { enabled: true, scene: '' } },
      /^OBS scene on going live in this file: scene: choose the scene to switch to\./,
    ],
    [
      'a reward id over the limit',
      { rewards: [reward({ rewardId: 'x'.repeat(65) })] },
      /number 1: at most 64 characters/,
    ],
    [
      'a scene that is not text',
      { goOffline: { enabled: true, scene: { name: 'x' } } },
      /^OBS scene on going offline in this file: not in the form Greenroom exports\./,
    ],
  ])('refuses %s at that action, and nothing is lost', (_, obsActions, reason) => {
    const current = streamerSetup();
    const before = structuredClone(current);
    const refusal = refused(plan(exportFile(current, { obsActions }), current));
    expect(refusal.reason).toMatch(reason);
    expect(refusal.detail).toMatch(/^obsActions\./);
    expect(current).toEqual(before);
  });
});
