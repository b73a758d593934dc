import { createServer } from 'node:net';
import { describe, expect, it } from 'vitest';
import { ephemeralStart, freePort } from '../../helpers/free-port';

describe('freePort', () => {
  // 200 random picks from about 12,000 ports would repeat one more often than not, were repeats not refused.
  it('hands out distinct ports below the ephemeral range that can be listened on', async () => {
    const ports: number[] = [];
    for (let i = 0; i < 200; i++) {
      ports.push(await freePort());
    }
    expect(new Set(ports).size).toBe(ports.length);
    for (const port of ports) {
      expect(port).toBeGreaterThanOrEqual(20_000);
      expect(port).toBeLessThan(ephemeralStart());
    }
    const server = createServer();
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(ports.at(-1), '127.0.0.1', resolve);
    });
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });
});
