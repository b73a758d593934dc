/**
 * The storm benchmarks' page driver (bench/lib/cdp-page.ts): headless Chromium over its DevTools pipe, doing
 * what the benchmark relies on, in a real Chromium.
 */
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CdpPage, openPage } from '../../bench/lib/cdp-page';
import { processCpuMs } from '../../bench/lib/process-cpu';

const PAGE = `<!doctype html><title>t</title><script>
  window.seen = { probeFirst: Boolean(window.__probe) };
  setTimeout(() => { const p = document.createElement('p'); p.id = 'late'; document.body.append(p); }, 300);
</script><body></body>`;

describe('the benchmark’s page driver', () => {
  let server: Server;
  let page: CdpPage;
  beforeAll(async () => {
    server = createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end(PAGE));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
    page = await openPage({ url, width: 640, height: 480, initScripts: ['window.__probe = { n: 1 }'] });
  });
  afterAll(async () => {
    await page?.close();
    await new Promise((resolve) => server.close(resolve));
  });

  it('runs the probe before the page’s scripts, at the size and colour scheme asked for', async () => {
    await page.waitFor('window.seen', 10_000);
    expect(await page.evaluate('window.seen')).toEqual({ probeFirst: true });
    expect(await page.evaluate('[innerWidth, innerHeight]')).toEqual([640, 480]);
    expect(await page.evaluate(`matchMedia('(prefers-color-scheme: dark)').matches`)).toBe(true);
  });

  it('waits for what the page shows later, and says what never showed', async () => {
    await page.waitFor(`document.getElementById('late')`, 10_000);
    await expect(page.waitFor(`document.getElementById('never')`, 300)).rejects.toThrow(/never showed/);
  });

  it('answers evaluations by value, awaits promises, and reports the page’s errors', async () => {
    expect(await page.evaluate('Promise.resolve({ a: [1, 2] })')).toEqual({ a: [1, 2] });
    await expect(page.evaluate('nope.nothing')).rejects.toThrow(/in the page/);
    const { usedSize } = await page.send<{ usedSize: number }>('Runtime.getHeapUsage');
    expect(usedSize).toBeGreaterThan(0);
  });

  it('saves a screenshot and belongs to a Chromium process the benchmark can account for', async () => {
    const path = join(tmpdir(), `greenroom-bench-page-${process.pid}.png`);
    await page.screenshot(path);
    expect(readFileSync(path).subarray(1, 4).toString()).toBe('PNG');
    rmSync(path);
    expect(processCpuMs(page.pid)).toBeGreaterThan(0);
    expect(existsSync(`/proc/${page.pid}`)).toBe(true);
  });
});
