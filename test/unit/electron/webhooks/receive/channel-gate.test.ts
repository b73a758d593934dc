/** The channel gate's judgements, from a first run, a saved list, and reconciles (docs/design-notes.md). */
import { describe, expect, it } from 'vitest';
import { createChannelGate } from '../../../../../electron/webhooks/receive/channel-gate';

const OWN = 100001;

describe('createChannelGate', () => {
  it('on a first run judges nothing until the channel and its list are known', () => {
    const gate = createChannelGate(null);
    expect(gate.judge('sub-1', OWN)).toBe('undecided');
    expect(gate.snapshot()).toBeNull();
    gate.setOwner(OWN);
    expect(gate.judge('sub-1', 999999)).toBe('other-channel');
    expect(gate.judge('sub-1', OWN)).toBe('undecided');
    gate.reconcileStarted();
    gate.reconcileEnded(OWN, ['sub-1']);
    expect(gate.judge('sub-1', OWN)).toBe('own');
    expect(gate.judge('sub-2', OWN)).toBe('other-subscription');
    expect(gate.snapshot()).toEqual({ broadcasterUserId: OWN, subscriptionIds: ['sub-1'] });
  });

  it('from a saved list acts on its ids at once and waits on the rest until this run has listed', () => {
    const gate = createChannelGate({ broadcasterUserId: OWN, subscriptionIds: ['sub-1'] });
    expect(gate.owner()).toBe(OWN);
    expect(gate.judge('sub-1', OWN)).toBe('own');
    expect(gate.judge('sub-2', OWN)).toBe('undecided');
    expect(gate.judge('sub-1', 999999)).toBe('other-channel');
  });

  it('compares the broadcaster strictly: a string or a missing id is not the channel', () => {
    const gate = createChannelGate({ broadcasterUserId: OWN, subscriptionIds: ['sub-1'] });
    for (const broadcaster of [String(OWN), undefined, null, OWN + 0.5, [OWN], { user_id: OWN }]) {
      expect(gate.judge('sub-1', broadcaster), JSON.stringify(broadcaster)).toBe('other-channel');
    }
  });

  it('while a reconcile is under way an unknown id waits for it; a failed list keeps what was held', async () => {
    const gate = createChannelGate({ broadcasterUserId: OWN, subscriptionIds: ['sub-1'] });
    gate.reconcileStarted();
    gate.reconcileEnded(OWN, ['sub-1']);
    gate.reconcileStarted();
    expect(gate.judge('sub-new', OWN)).toBe('undecided');
    const changed = gate.nextChange();
    gate.reconcileEnded(OWN, null);
    await changed;
    expect(gate.judge('sub-1', OWN)).toBe('own');
    expect(gate.judge('sub-new', OWN)).toBe('other-subscription');
  });

  it('another channel signing in forgets what was held; a late run for the old one changes nothing', () => {
    const gate = createChannelGate({ broadcasterUserId: OWN, subscriptionIds: ['sub-1'] });
    gate.reconcileStarted();
    gate.setOwner(200002);
    expect(gate.judge('sub-1', OWN)).toBe('other-channel');
    expect(gate.judge('sub-1', 200002)).toBe('undecided');
    gate.reconcileEnded(OWN, ['sub-1']);
    expect(gate.judge('sub-1', 200002)).toBe('undecided');
    gate.reconcileStarted();
    gate.reconcileEnded(200002, ['sub-9']);
    expect(gate.judge('sub-9', 200002)).toBe('own');
    expect(gate.snapshot()).toEqual({ broadcasterUserId: 200002, subscriptionIds: ['sub-9'] });
  });
});
