import { describe, expect, it } from 'vitest';
import { freePortBeside, PORT_USES, portClash, redirectUriProblem } from '../../../shared/loopback-redirect';

const IN_USE = [
  { port: 7531, use: PORT_USES.panel },
  { port: 3000, use: PORT_USES.webhook },
];

describe('redirectUriProblem', () => {
  it.each([
    ['http://localhost:99999/cb', 'The port must be between 1 and 65535.'],
    ['http://127.0.0.1:65536/cb', 'The port must be between 1 and 65535.'],
    ['http://127.0.0.1:port/cb', 'The port must be between 1 and 65535.'],
  ])('says a port out of range plainly: %s', (value, reason) => {
    expect(redirectUriProblem(value)).toBe(reason);
  });

  it('refuses port 0: Kick needs the exact port registered', () => {
    expect(redirectUriProblem('http://127.0.0.1:0/cb')).toMatch(/^The port must be between 1 and 65535\. Kick/);
  });

  it.each([
    ['', /^Enter the address/],
    ['https://127.0.0.1:3000/cb', /^Start it with http:\/\//],
    ['http://example.com:3000/cb', /^The address must be this computer/],
    ['http://127.0.0.1:3001', /^Add a path/],
    ['http://local host:3001/cb', /^This is not a web address/],
    [`http://127.0.0.1:3001/${'a'.repeat(200)}`, /^At most 200 characters\.$/],
  ])('names what is wrong with %j and how to write it', (value, reason) => {
    expect(redirectUriProblem(value)).toMatch(reason);
  });

  it('refuses a port Greenroom uses, however the host is spelled, and names a free one', () => {
    for (const value of ['http://[::1]:7531/cb', 'http://localhost:07531/cb', 'http://0x7f.0.0.1:7531/cb']) {
      expect(redirectUriProblem(value, IN_USE)).toBe(
        'Port 7531 is the one Greenroom uses for its panel and OBS links. Pick another port, such as 3001.',
      );
    }
    expect(redirectUriProblem('http://127.0.0.1/cb', [{ port: 80, use: 'x' }])).toMatch(/^Port 80 /);
  });

  it('accepts a loopback redirect with a path on a free port', () => {
    for (const value of ['http://127.0.0.1:3001/callback', 'http://[::1]:53682/cb', 'http://localhost:8080/a/b']) {
      expect(redirectUriProblem(value, IN_USE)).toBeNull();
    }
  });
});

describe('portClash', () => {
  it('ignores port 0 entries (a free port each start clashes with nothing)', () => {
    expect(portClash(0, [{ port: 0, use: 'x' }])).toBeNull();
  });

  it('suggests the first free port from where it is told', () => {
    expect(freePortBeside(7531, IN_USE)).toBe(7532);
    expect(portClash(3000, IN_USE, 7531)).toMatch(/such as 7532\.$/);
  });
});
