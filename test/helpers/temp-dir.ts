/**
 * Temp dirs that tests do not have to remember to remove: each is deleted after the last test of the file
 * that made it, so a CI run leaves nothing behind in the system temp dir (it used to leave 86
 * `greenroom-panel-*` and six `greenroom-token-*` directories).
 *
 * The hook is registered when a test file first imports this module: Vitest collects a file by importing
 * it, so a hook called then belongs to that file, and each file gets its own copy of this module.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';

const made: string[] = [];

afterAll(() => {
  for (const path of made.splice(0)) {
    rmSync(path, { recursive: true, force: true });
  }
});

/** A fresh directory `<tmp>/<prefix>XXXXXX`, removed after the file's last test. */
export function tempDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  made.push(dir);
  return dir;
}
