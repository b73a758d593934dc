import { describe, expect, it } from 'vitest';
import { ConnectionState, NOT_RUNNING } from '../../../../../renderer/src/lib/state/connection.svelte';
import type { ConnectionStatus } from '../../../../../renderer/src/lib/transport';
import { fakeLink } from '../../components/app-not-running-fixtures';
import { manualClock } from '../../fake-api';

/** The link as the panel's transport reports it, dropped and brought back by hand. */
const source = (initial: ConnectionStatus, clock = manualClock()) => fakeLink(clock, initial);

describe('ConnectionState', () => {
  it('is not cut off during the first connect, whose calls wait for the handshake', () => {
    const link = source('connecting');
    const connection = new ConnectionState(link, manualClock());
    connection.connect(() => undefined);
    expect(connection.cutOff).toBe(false);
    expect(connection.message).toBe('Connecting to Greenroom…');
    // The app was not running when the page opened: that is a cut-off panel like any other.
    link.set('reconnecting');
    expect(connection.cutOff).toBe(true);
    expect(connection.message).toBe(NOT_RUNNING);
    expect(connection.lostAtMs).toBeNull();
  });

  it('notes when the link dropped and each attempt, and forgets both once it is back', () => {
    const clock = manualClock(new Date(2026, 0, 5, 21, 30, 0).getTime());
    const link = source('open');
    const connection = new ConnectionState(link, clock);
    let resyncs = 0;
    const off = connection.connect(() => resyncs++);
    link.set('reconnecting');
    expect(connection.lostAtMs).toBe(clock.now());
    expect(connection.lastTried).toBeNull();
    expect(connection.canRetry).toBe(true);
    link.attempt(clock.now() + 7_000);
    expect(connection.lastTried).toMatch(/^Last tried at 21:30:07;/);
    link.set('open');
    expect(connection.cutOff).toBe(false);
    expect(connection.lostAtMs).toBeNull();
    expect(connection.lastTried).toBeNull();
    expect(resyncs).toBe(1);
    off();
    link.set('reconnecting');
    link.set('open');
    expect(resyncs).toBe(1);
  });

  it('says a refused dock URL plainly, offers no retry, and stays cut off', () => {
    const link = source('open');
    const connection = new ConnectionState(link, manualClock());
    connection.connect(() => undefined);
    link.set('unauthorized');
    expect(connection.cutOff).toBe(true);
    expect(connection.canRetry).toBe(false);
    expect(connection.message).toMatch(/dock URL is no longer valid/);
  });
});
