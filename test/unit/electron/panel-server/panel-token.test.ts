import {
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readlinkSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadOrCreatePanelToken, PANEL_TOKEN_FILE_NAME } from '../../../../electron/panel-server/panel-token';

const NOW_MS = Date.UTC(2025, 0, 31, 18, 4, 5, 123);
const TOKEN = 'A'.repeat(43);

let root: string;
let dir: string;
let file: string;
let notices: string[];
const load = () => loadOrCreatePanelToken(dir, { notice: (l) => notices.push(l), nowMs: () => NOW_MS });

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'greenroom-panel-token-'));
  dir = join(root, 'data');
  file = join(dir, PANEL_TOKEN_FILE_NAME);
  notices = [];
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

describe('the panel token file', () => {
  it('is made once, 0600 in a 0700 data folder, and read back', () => {
    const token = load();
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    expect(load()).toBe(token);
    expect(notices).toEqual([]);
  });

  it.each([
    ['a file of the streamer’s', 'my notes\n'],
    ['a token of another install', `${TOKEN}\n`],
  ])('a link in its place to %s: neither used nor overwritten, the link kept aside', (_, text) => {
    mkdirSync(dir);
    const outside = join(root, 'somebody-elses-file');
    writeFileSync(outside, text);
    symlinkSync(outside, file);
    const token = load();
    expect(token).not.toBe(TOKEN);
    expect(readFileSync(outside, 'utf8')).toBe(text);
    const aside = `${file}.damaged-2025-01-31T18-04-05-123Z`;
    expect(readlinkSync(aside)).toBe(outside);
    expect(readFileSync(file, 'utf8')).toBe(`${token}\n`);
    expect(notices).toEqual([
      `Greenroom: the panel token file ${file} is a link to another place (${outside}), which Greenroom will not ` +
        `follow; it was moved to ${aside} and a new one was made, so the dock URL changed: paste the new one into OBS.`,
    ]);
  });

  it('a file that holds no token is kept aside, not overwritten silently', () => {
    mkdirSync(dir);
    writeFileSync(file, 'my notes, saved here by mistake');
    load();
    expect(readFileSync(`${file}.damaged-2025-01-31T18-04-05-123Z`, 'utf8')).toBe('my notes, saved here by mistake');
    expect(notices[0]).toMatch(/^Greenroom: the panel token file \S+ was damaged \(it holds no token\); it was moved/);
  });
});
