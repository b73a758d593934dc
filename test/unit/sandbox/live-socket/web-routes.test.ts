/** Centrifugo connection tokens from the sandbox's web host: good for an hour, unforgeable, never thrown on. */
import { describe, expect, it } from 'vitest';
import { CONNECTION_TOKEN_TTL_MS, ConnectionTokens } from '../../../../sandbox/live-socket/web-routes';

describe('ConnectionTokens', () => {
  it('accepts its own token until it expires', () => {
    let now = 5_000;
    const tokens = new ConnectionTokens(() => now);
    const token = tokens.mint('client-1');
    expect(tokens.valid(token)).toBe(true);
    now += CONNECTION_TOKEN_TTL_MS - 1;
    expect(tokens.valid(token)).toBe(true);
    now += 1;
    expect(tokens.valid(token)).toBe(false);
  });

  it("refuses another sandbox's token, an edited expiry and junk", () => {
    const now = (): number => 0;
    const mine = new ConnectionTokens(now);
    const theirs = new ConnectionTokens(now).mint('client-1');
    expect(mine.valid(theirs)).toBe(false);
    const [client, expiry, mac] = mine.mint('client-1').split('.');
    expect(mine.valid(`${client}.${Number(expiry) + 1}.${mac}`)).toBe(false);
    for (const junk of ['', '..', 'a.b', 'a.b.c.d', `${'x'.repeat(600)}.1.2`, 'e30.9999999999999.\u00e9']) {
      expect(mine.valid(junk)).toBe(false);
    }
  });
});
