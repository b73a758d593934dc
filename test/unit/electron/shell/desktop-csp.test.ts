/**
 * The desktop window's image policy from the emote host setting, on the real renderer/index.html: a
 * custom host is allowed, and no host value, however hostile, widens the policy beyond one https origin
 * (docs/desktop-runtime.md#emote-images-in-the-desktop-window).
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { emoteImageSource, withEmoteHostPolicy } from '../../../../electron/shell/desktop-csp';
import { createRendererFileHandler } from '../../../../electron/shell/renderer-file-handler';
import { loadFileFrameUrl } from './loadfile-url-fixtures';

const PAGE = readFileSync('renderer/index.html', 'utf8');
const LOOPBACK = ['http://127.0.0.1:*', 'http://localhost:*'];

/** The page's policy as directive → sources, read the way a browser splits it. */
function policyOf(html: string): Map<string, string[]> {
  const metas = [...html.matchAll(/<meta\s[^>]*http-equiv="Content-Security-Policy"[^>]*>/gi)];
  expect(metas).toHaveLength(1);
  const content = /content="([^"]*)"/.exec(metas[0]![0])![1]!;
  return new Map(
    content
      .split(';')
      .map((part) => part.trim().split(/\s+/))
      .filter((tokens) => tokens[0])
      .map(([name, ...sources]) => [name!, sources]),
  );
}

describe('the desktop image policy', () => {
  it('allows the configured emote host and keeps every other directive as the page wrote it', () => {
    const before = policyOf(PAGE);
    const after = policyOf(withEmoteHostPolicy(PAGE, 'https://emotes.example.net'));
    expect(after.get('img-src')).toEqual(["'self'", 'data:', 'https://emotes.example.net', ...LOOPBACK]);
    expect(after.get('img-src')).not.toContain('https://files.kick.com');
    for (const [name, sources] of before) {
      if (name !== 'img-src') {
        expect(after.get(name), name).toEqual(sources);
      }
    }
    expect(policyOf(withEmoteHostPolicy(PAGE, 'https://files.kick.com')).get('img-src')).toEqual(before.get('img-src'));
    expect(emoteImageSource('https://Emotes.Example.net:8443/')).toBe('https://emotes.example.net:8443');
    expect(emoteImageSource('https://bücher.example')).toBe('https://xn--bcher-kva.example');
  });

  it.each([
    'https://*',
    'https://*.example.com',
    'https://a%2A.example',
    'https://evil.example; script-src *',
    'https://evil.example/"><script>alert(1)</script>',
    'https://a.example https://b.example',
    'http://evil.example',
    'https://user:pw@evil.example',
    'https://evil.example/path',
    'https://evil.example/?q=1',
    'https://[::1]',
    "'unsafe-inline'",
    'data:',
    'javascript:alert(1)',
    '*',
    '',
  ])('never widens the policy for the host value %j', (host) => {
    const html = withEmoteHostPolicy(PAGE, host);
    const policy = policyOf(html);
    expect(policy.get('img-src')).toEqual(["'self'", 'data:', ...LOOPBACK]);
    expect(policy.get('script-src')).toEqual(["'self'"]);
    expect(html).not.toContain('<script>alert');
    expect(emoteImageSource(host)).toBeNull();
  });
});

describe('the renderer file handler', () => {
  const index = '/opt/100% Green/resources/app.asar/out/renderer/index.html';
  const passed: string[] = [];
  const handler = createRendererFileHandler({
    rendererIndex: index,
    platform: 'linux',
    emoteHost: () => 'https://emotes.example.net',
    readFile: (path) => Promise.resolve(path === index ? PAGE : ''),
    passThrough: (request) => {
      passed.push(request.url);
      return Promise.resolve(new Response('asset'));
    },
  });

  it('serves our page with the policy, whatever window route, and passes every other file through', async () => {
    for (const route of [{}, { hash: '/chat' }, { query: { compact: '1' } }]) {
      const response = await handler(new Request(loadFileFrameUrl(index, 'linux', route)));
      expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
      expect(policyOf(await response.text()).get('img-src')).toContain('https://emotes.example.net');
    }
    const asset = 'file:///opt/100%%20Green/resources/app.asar/out/renderer/assets/index-abc.js';
    expect(await (await handler(new Request(asset))).text()).toBe('asset');
    expect(await (await handler(new Request('file:///home/me/index.html'))).text()).toBe('asset');
    expect(passed).toEqual([asset, 'file:///home/me/index.html']);
  });
});
