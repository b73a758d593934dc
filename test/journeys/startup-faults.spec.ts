/**
 * Journey: Greenroom starts on a data dir with something wrong in it. The data dir comes from a real
 * session (signed in against a standalone Kick sandbox, a few chat messages in the journal); each case
 * damages a copy of it the way disks and people do and starts the built app on it. Each time the app must
 * say so in one plain line naming the file and what happens next, and come up: the panel URL is printed
 * and the panel loads in Chromium. A lost sign-in shows as "Sign in with Kick".
 *
 * The read-only and full-disk cases run the app in its own mount namespace (`unshare -m`: a read-only bind
 * mount of the data dir, or a small tmpfs filled to the last byte); the mounts vanish with the process.
 */
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { request } from 'undici';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { SETTINGS_FILE_NAME } from '../../electron/app/settings';
import { SECRETS_FILE_NAME, SECRETS_KEY_FILE_NAME } from '../../electron/secrets/node-secret-store';
import { type AppOptions, type AppRun, killLeftovers, startApp } from './app-process';
import { connectPanel, launchChromium, newContext, openPanel, value } from './panel';
import { type StandaloneSandbox, startStandaloneSandbox } from './sandbox-admin';
import { waitUntil } from './wait';
import { freePort } from './webhook-recorder';

const WAIT = { timeout: 15_000 };
const VIEWER = 100100;

/** Whether this machine lets us make mount namespaces (root, or the capability); else those cases skip. */
function canMount(): boolean {
  const probe = mkdtempSync(join(tmpdir(), 'greenroom-journey-mount-'));
  try {
    const result = spawnSync('unshare', ['-m', 'sh', '-c', 'mount -t tmpfs -o size=16k tmpfs "$0"', probe]);
    return result.status === 0;
  } catch {
    return false;
  } finally {
    rmSync(probe, { recursive: true, force: true });
  }
}
const MOUNTS = canMount();

/** Follows redirects as a browser would: the sandbox auto-approves and sends it to the app's callback. */
async function visit(url: string): Promise<void> {
  let next: string | undefined = url;
  for (let hops = 0; next && hops < 5; hops++) {
    const res: Awaited<ReturnType<typeof request>> = await request(next);
    await res.body.text();
    const location = res.headers.location;
    next = typeof location === 'string' ? new URL(location, next).href : undefined;
  }
}

/** Lines of either stream that name `file`. */
function linesNaming(app: AppRun, file: string): string[] {
  return [...app.stdout.lines, ...app.stderr.lines].filter((line) => line.includes(file));
}

describe('journey: start-up faults are one plain line, and Greenroom comes up', () => {
  let template: string;
  let sandbox: StandaloneSandbox;
  let browser: Browser;
  let appEnv: Record<string, string>;
  /** The chat as the panel showed it before the restart: in arrival order, which restarts keep. */
  let chatIds: string[] = [];
  const dirs: string[] = [];
  let app: AppRun | null = null;

  /** A copy of the signed-in data dir, damaged by `damage`. */
  const damagedCopy = (damage: (dir: string) => void): string => {
    const dir = mkdtempSync(join(tmpdir(), 'greenroom-journey-fault-'));
    dirs.push(dir);
    cpSync(template, dir, { recursive: true });
    damage(dir);
    return dir;
  };

  /** Starts on `dir`, checks the panel loads, and returns the run (stopped after the case). */
  const startOn = async (dir: string, extra: Partial<AppOptions> = {}): Promise<AppRun> => {
    app = await startApp({ dataDir: dir, env: appEnv, ...extra });
    const page = await openPanel(await newContext(browser), app);
    expect(await page.title()).toMatch(/Greenroom/);
    return app;
  };

  /** The panel asks to sign in again. */
  const asksToSignIn = async (run: AppRun): Promise<void> => {
    const page = await openPanel(await newContext(browser), run);
    await page
      .getByRole('region', { name: 'Sign in' })
      .getByRole('button', { name: /^Sign in/ })
      .waitFor(WAIT);
  };

  beforeAll(async () => {
    template = mkdtempSync(join(tmpdir(), 'greenroom-journey-template-'));
    const redirectUri = `http://127.0.0.1:${await freePort()}/callback`;
    const webhookPort = await freePort();
    sandbox = await startStandaloneSandbox({
      redirectUri,
      webhookUrl: `http://127.0.0.1:${webhookPort}/kick/webhook`,
      autoApprove: true,
    });
    appEnv = { ...sandbox.appEnv, GREENROOM_WEBHOOK_PORT: String(webhookPort) };
    writeFileSync(join(template, `${SETTINGS_FILE_NAME}.json`), JSON.stringify({ version: 2, redirectUri }));
    browser = await launchChromium();
    // A real session: signed in (the tokens in the secrets file), three chat messages in the journal.
    const first = await startApp({ dataDir: template, env: appEnv });
    const panel = connectPanel(first);
    const from = first.stdout.lines.length;
    const signingIn = value(panel.api.auth.startLogin({}));
    await visit((await first.stdout.waitFor(/^Open this link to continue: (\S+)$/, { from }))[1]!);
    expect(await signingIn).toMatchObject({ signedIn: true });
    await waitUntil(
      'subscriptions',
      async () => (await sandbox.admin.counts()).eventSubscriptions,
      (n) => n === 10,
    );
    const sent: string[] = [];
    for (const line of ['first line', 'second line', 'third line']) {
      sent.push(await sandbox.admin.chat(line, VIEWER));
    }
    // Kick delivers webhooks side by side, so three lines sent within a millisecond may arrive in any order;
    // the panel shows them as they came, and a restart must show them the same way.
    chatIds = await waitUntil(
      'chat in the panel',
      async () => (await value(panel.api.chat.history())).map((m) => m.messageId),
      (ids) => ids.length === 3,
    );
    expect([...chatIds].sort()).toEqual([...sent].sort());
    panel.close();
    expect(await first.stop()).toEqual({ code: 0, signal: null });
    expect(existsSync(join(template, `${SECRETS_FILE_NAME}.json`))).toBe(true);
  });

  afterEach(async () => {
    await app?.stop();
    app = null;
  });

  afterAll(async () => {
    await browser?.close();
    await sandbox?.close();
    await killLeftovers();
    for (const dir of [template, ...dirs]) {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it.each([
    ['an empty secrets file', ''],
    ['a corrupt secrets file', '{"secrets":{"kick.userToken":{"v":1,"backend":"node-aes'],
  ])('%s: moved aside, one line, signed out', async (_, text) => {
    const dir = damagedCopy((d) => writeFileSync(join(d, `${SECRETS_FILE_NAME}.json`), text));
    const run = await startOn(dir);
    const file = join(dir, `${SECRETS_FILE_NAME}.json`);
    expect(run.notices).toEqual([
      expect.stringMatching(
        new RegExp(
          `^Greenroom: the saved sign-in ${file} was damaged \\(not valid JSON\\); it was moved to ${file}\\.damaged-\\S+\\. Sign in again`,
        ),
      ),
    ]);
    expect(readdirSync(dir).filter((f) => f.startsWith(`${SECRETS_FILE_NAME}.json.damaged-`))).toHaveLength(1);
    await asksToSignIn(run);
  });

  it('a truncated key file: the key and the secrets moved aside, one line, signed out', async () => {
    const dir = damagedCopy((d) => writeFileSync(join(d, SECRETS_KEY_FILE_NAME), 'c2hvcnQ='));
    const run = await startOn(dir);
    expect(run.notices).toEqual([
      expect.stringMatching(
        new RegExp(`^Greenroom: the key file ${join(dir, SECRETS_KEY_FILE_NAME)} was damaged, .* Sign in again`),
      ),
    ]);
    await asksToSignIn(run);
  });

  it('a damaged settings file: moved aside, one line, default settings', async () => {
    const dir = damagedCopy((d) => writeFileSync(join(d, `${SETTINGS_FILE_NAME}.json`), '{"version": 2, "redir'));
    const run = await startOn(dir);
    const file = join(dir, `${SETTINGS_FILE_NAME}.json`);
    expect(run.notices).toEqual([
      `Greenroom: the settings file ${file} was damaged (not valid JSON); it was moved to ${
        readdirSync(dir)
          .filter((f) => f.startsWith(`${SETTINGS_FILE_NAME}.json.damaged-`))
          .map((f) => join(dir, f))[0]
      } and Greenroom starts with default settings.`,
    ]);
  });

  it('one unreadable journal segment: one line naming it, the other segment restored', async () => {
    const dir = damagedCopy((d) => {
      // The real segment becomes the newer one; the older one is disk garbage, many lines of it.
      const journal = join(d, 'journal');
      renameSync(join(journal, 'journal-000001.log'), join(journal, 'journal-000002.log'));
      const garbage = Array.from({ length: 20 }, (_, i) => `${'\u0000\u00ff'.repeat(8)}#${i}@@not a record`).join('\n');
      writeFileSync(join(journal, 'journal-000001.log'), `${garbage}\n`);
    });
    const run = await startOn(dir);
    expect(linesNaming(run, 'journal-000001.log')).toHaveLength(1);
    const panel = connectPanel(run);
    try {
      expect((await value(panel.api.chat.history())).map((m) => m.messageId)).toEqual(chatIds);
    } finally {
      panel.close();
    }
  });

  it.skipIf(!MOUNTS)('a read-only data dir: one line naming it, and Greenroom comes up', async () => {
    const dir = damagedCopy(() => undefined);
    const run = await startOn(dir, {
      wrap: {
        command: 'unshare',
        args: [
          '-m',
          'sh',
          '-c',
          'set -e; D="$1"; shift; mount --bind "$D" "$D"; mount -o remount,bind,ro "$D"; exec "$@"',
          'sh',
          dir,
        ],
      },
    });
    expect(run.notices).toEqual([
      expect.stringMatching(
        new RegExp(
          `^Greenroom: the data folder ${dir} cannot be written \\(the disk is read-only\\)\\. Greenroom starts`,
        ),
      ),
    ]);
    // Still signed in, and chat is back: reading the saved sign-in and the journal needs no write.
    const panel = connectPanel(run);
    try {
      expect(await value(panel.api.app.snapshot())).toMatchObject({ account: { signedIn: true } });
      expect((await value(panel.api.chat.history())).map((m) => m.messageId)).toEqual(chatIds);
    } finally {
      panel.close();
    }
  });

  it.skipIf(!MOUNTS)('a full disk: one line naming it, and Greenroom comes up', async () => {
    const dir = damagedCopy(() => undefined);
    // A 4 MB tmpfs over the data dir with the session copied in, then filled to the last byte.
    const fill =
      'set -e; D="$1"; shift; mkdir "$D.copy"; cp -a "$D"/. "$D.copy"/; mount -t tmpfs -o size=4m tmpfs "$D"; ' +
      'cp -a "$D.copy"/. "$D"/; rm -rf "$D.copy"; head -c 8m /dev/zero > "$D/filler" 2>/dev/null || true; exec "$@"';
    mkdirSync(join(dir, 'journal'), { recursive: true });
    const run = await startOn(dir, { wrap: { command: 'unshare', args: ['-m', 'sh', '-c', fill, 'sh', dir] } });
    expect(run.notices).toEqual([
      expect.stringMatching(
        new RegExp(`^Greenroom: the disk holding ${dir} is full \\(0 bytes free\\)\\. Greenroom starts`),
      ),
    ]);
    const panel = connectPanel(run);
    try {
      // What was saved before the disk filled up is all there.
      expect((await value(panel.api.chat.history())).map((m) => m.messageId)).toEqual(chatIds);
      expect(await value(panel.api.app.snapshot())).toMatchObject({ account: { signedIn: true } });
    } finally {
      panel.close();
    }
  });
});
