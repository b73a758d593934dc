#!/usr/bin/env node
// `npm run check:citations` (part of `npm run check`): every document a code comment cites must be inside the
// repository and reachable by the link as written, so a newcomer can follow it (docs/README.md).
//
// Rules, for source files at the top level and under the code roots:
// - A citation is a relative link to a Markdown file (`../../docs/kick-wire-reference.md#55-expected-response-and-retries`).
//   The file must exist relative to the citing file, and an `#anchor` must be the GitHub slug of one of its headings.
// - A section sign (`§`) may only appear inside a Markdown link (`[wire §5.5](…)`), so no citation can be left
//   pointing at a document by name alone ("reference §5.5", "seed §8"). Public standards (`RFC 6749 §4.1.2.1`)
//   are cited by name and section, as usual.
// - Documents that live outside the repository (design.md, style.md, feasibility.md) are never cited by name.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, extname, join, relative, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const CODE_ROOTS = ['electron', 'shared', 'renderer', 'sandbox', 'scripts', 'bench', 'test'];
const CODE_EXTENSIONS = new Set(['.ts', '.mts', '.cts', '.js', '.mjs', '.cjs', '.svelte']);
const SKIP_DIRS = new Set(['node_modules', 'out', 'dist', '.tools', '.reports', 'test-results']);

/** A relative link to a Markdown file, optionally with an anchor. */
const LINK = /(?<![\w/.-])(\.{1,2}\/[\w./-]*?\.md)(#[\w-]+)?/g;
/** A Markdown link's target in this repository (`](docs/decisions.md#…)`), with or without `./`. */
const MD_TARGET = /\]\((?!https?:)([\w./-]+\.md)(#[\w-]+)?\)/g;
/** A Markdown link `[text](target)`: the only place a section sign may stand. */
const MD_LINK = /\[[^\]\n]*\]\([^)\s]+\)/g;
/** Public standards cited by section (`RFC 6749 §4.1.2.1`, `OAuth 2.1 §4.1.3`): not ours to link. */
const STANDARD = /\b(?:RFC \d+|OAuth 2\.1) §[\d.]+/g;
/** Documents outside the repository, cited by bare name. */
// "issue 10" cannot be followed from the repository: the reason belongs in a docs section the code links to.
const ISSUE = /\bissue #?\d+/i;
const OUTSIDE = /(?<![\w/.-])(design\.md|style\.md|feasibility\.md|kick-api\.md)\b/g;

/** GitHub's heading anchor: lower case, punctuation dropped except `-`, spaces to `-`. */
export function slug(heading) {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

const anchorCache = new Map();
function anchorsOf(file) {
  let anchors = anchorCache.get(file);
  if (!anchors) {
    anchors = new Set();
    let inFence = false;
    for (const line of readFileSync(file, 'utf8').split('\n')) {
      if (line.startsWith('```')) {
        inFence = !inFence;
      }
      const match = !inFence && /^#{1,6}\s+(.*)$/.exec(line);
      if (match) {
        anchors.add(slug(match[1]));
      }
    }
    anchorCache.set(file, anchors);
  }
  return anchors;
}

function* sourceFiles(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.isDirectory()) {
      if (!SKIP_DIRS.has(entry.name) && !entry.name.startsWith('.')) {
        yield* sourceFiles(join(dir, entry.name));
      }
    } else if (CODE_EXTENSIONS.has(extname(entry.name))) {
      yield join(dir, entry.name);
    }
  }
}

/** Problems in one file's text, as `{ line, message }`. */
export function checkText(file, text) {
  const problems = [];
  const lines = text.split('\n');
  lines.forEach((line, index) => {
    const at = index + 1;
    const targets = [...line.matchAll(LINK)].map((m) => [m[1], m[2]]);
    for (const m of line.matchAll(MD_TARGET)) {
      if (!targets.some(([target]) => target === m[1])) {
        targets.push([m[1], m[2]]);
      }
    }
    for (const [target, anchor] of targets) {
      const path = resolve(dirname(file), target);
      if (!existsSync(path) || !statSync(path).isFile()) {
        problems.push({ line: at, message: `cites ${target}, which does not exist` });
      } else if (anchor && !anchorsOf(path).has(anchor.slice(1))) {
        problems.push({ line: at, message: `cites ${target}${anchor}, but ${target} has no heading with that anchor` });
      }
    }
    const outsideLinks = line.replace(MD_LINK, '').replace(STANDARD, '');
    if (outsideLinks.includes('§')) {
      problems.push({
        line: at,
        message: 'a section sign outside a link: cite the section as a relative Markdown link',
      });
    }
    if (ISSUE.test(line)) {
      problems.push({ line: at, message: 'cites an issue number: link the docs section that says why instead' });
    }
    for (const match of outsideLinks.matchAll(OUTSIDE)) {
      problems.push({ line: at, message: `cites ${match[1]}, which is not in the repository (see docs/README.md)` });
    }
  });
  return problems;
}

/** Every problem under the code roots of `root`. */
export function checkCitations(root) {
  const problems = [];
  for (const entry of readdirSync(root, { withFileTypes: true })) {
    if (entry.isFile() && CODE_EXTENSIONS.has(extname(entry.name))) {
      const file = join(root, entry.name);
      for (const problem of checkText(file, readFileSync(file, 'utf8'))) {
        problems.push({ file: entry.name, ...problem });
      }
    }
  }
  for (const dirName of CODE_ROOTS) {
    const dir = join(root, dirName);
    if (!existsSync(dir)) {
      continue;
    }
    for (const file of sourceFiles(dir)) {
      if (file === fileURLToPath(import.meta.url)) {
        continue;
      }
      for (const problem of checkText(file, readFileSync(file, 'utf8'))) {
        problems.push({ file: relative(root, file), ...problem });
      }
    }
  }
  return problems;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const root = resolve(process.argv[2] ?? join(dirname(fileURLToPath(import.meta.url)), '..'));
  const problems = checkCitations(root);
  for (const { file, line, message } of problems) {
    console.error(`${file}:${line}: ${message}`);
  }
  console.log(
    problems.length === 0 ? 'citations: every cited document resolves' : `citations: ${problems.length} broken`,
  );
  process.exit(problems.length === 0 ? 0 : 1);
}
