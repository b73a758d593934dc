/**
 * Journey ([logging](../../docs/logging.md#no-secret-in-any-line)): the built app against the sandbox, signed
 * in, through a short chat storm, a forged delivery whose message id is the stream key, a timeout, a test alert
 * on an overlay, Save diagnostics and sign-out. Then every file under the data folder, and the saved
 * diagnostics, are read and searched for each secret the app held, read from where the app keeps it: the access and refresh tokens and the client secret (through the
 * app's own secret store), the stream key (from Kick), the overlay key and the panel token. A file that is a
 * secret's own home (the panel token's file, the overlay key's) is searched for every other secret.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOG_DIR_NAME, LOG_FILE_NAME } from '../../electron/core/log-file';
import { createNodeSecretStore } from '../../electron/secrets/node-secret-store';
import { SECRET_KEYS } from '../../electron/secrets/secret-store';
import { startOverlayWorld, type OverlayWorld } from './overlay-fixtures';
import { value } from './panel';

const VIEWER = 100107;
const STORM = 200;

/** Every regular file under `dir`, recursively. */
function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) {
      return filesUnder(path);
    }
    return entry.isFile() ? [path] : [];
  });
}

describe('journey: no secret in any file', () => {
  let world: OverlayWorld;
  const secrets = new Map<string, string>();
  let diagnostics = '';
  let diagnosticsPath: string | null = null;

  beforeAll(async () => {
    world = await startOverlayWorld();
    // Read while signed in: sign-out deletes the tokens, and they must not be left anywhere either.
    const store = createNodeSecretStore(world.dataDir);
    const user = JSON.parse((await store.get(SECRET_KEYS.userToken)) ?? '{}') as Record<string, unknown>;
    for (const [name, token] of Object.entries(user)) {
      if (/token/i.test(name) && typeof token === 'string') {
        secrets.set(`user ${name}`, token);
      }
    }
    secrets.set('client secret', world.sandbox.appEnv.GREENROOM_CLIENT_SECRET!);
    secrets.set('stream key', (await value(world.panel.api.stream.key())).key);
    secrets.set('panel token', new URL(world.app.panelUrl).searchParams.get('token')!);
    const overlayUrl = Object.values((await value(world.panel.api.overlays.info())).urls).find(Boolean)!;
    secrets.set('overlay key', new URL(overlayUrl).searchParams.get('key')!);
  }, 60_000);

  afterAll(async () => {
    await world?.close().catch(() => undefined);
  });

  it('runs a storm, a forged delivery, a timeout, an overlay alert, Save diagnostics and sign-out', async () => {
    for (let n = 0; n < STORM; n++) {
      await world.sandbox.admin.chat(`storm line ${n}`, VIEWER + (n % 20));
    }
    await expect
      .poll(async () => (await value(world.panel.api.chat.history())).length, { timeout: 20_000 })
      .toBeGreaterThan(100);
    // A delivery nobody signed, with the stream key as its message id: the receiver logs each rejection with the
    // id it was sent, and a key the app has read from Kick must leave that line redacted, not only by a pattern.
    const forged = await fetch(world.recorder.url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'Kick-Event-Message-Id': secrets.get('stream key')!,
        'Kick-Event-Subscription-Id': '01FORGED000000000000000000',
        'Kick-Event-Signature': Buffer.alloc(256, 7).toString('base64'),
        'Kick-Event-Message-Timestamp': new Date().toISOString(),
        'Kick-Event-Type': 'chat.message.sent',
        'Kick-Event-Version': '1',
      },
      body: '{}',
    });
    expect(forged.status).toBe(400);
    await value(world.panel.api.mod.timeout({ userId: VIEWER, minutes: 5, reason: 'storm' }));
    await value(world.panel.api.overlays.testAlert({ kind: 'follow' }));
    const saved = await value(world.panel.api.diagnostics.save());
    diagnostics = saved.text;
    diagnosticsPath = saved.path;
    await value(world.panel.api.auth.signOut());
    // Stopped, so every journal and log line is on disk.
    world.panel.close();
    await world.app.stop();
  }, 120_000);

  it('found every secret it looks for', () => {
    expect([...secrets.keys()].sort()).toEqual(
      ['client secret', 'overlay key', 'panel token', 'stream key', 'user accessToken', 'user refreshToken'].sort(),
    );
    for (const secret of secrets.values()) {
      expect(secret.length).toBeGreaterThanOrEqual(8);
    }
  });

  it('wrote a log file and saved the diagnostics in the data folder', () => {
    const log = readFileSync(join(world.dataDir, LOG_DIR_NAME, LOG_FILE_NAME), 'utf8');
    // The stop at the end of the journey is in it, as a JSON record.
    expect(log).toContain('"msg":"panel: SIGTERM, stopping"');
    expect(diagnosticsPath).not.toBeNull();
    expect(readFileSync(diagnosticsPath!, 'utf8')).toBe(diagnostics);
    const parsed = JSON.parse(diagnostics) as { log: string[]; versions: Record<string, string> };
    expect(parsed.log.length).toBeGreaterThan(0);
    expect(parsed.versions.node).toBe(process.versions.node);
  });

  it('leaves no secret in any file under the data folder, nor in the diagnostics', () => {
    const homes: Record<string, string> = { 'panel token': 'panel-token', 'overlay key': 'overlay-key' };
    const files = filesUnder(world.dataDir);
    const found: string[] = [];
    for (const path of files) {
      const text = readFileSync(path).toString('latin1');
      for (const [kind, secret] of secrets) {
        if (homes[kind] === relative(world.dataDir, path)) {
          continue;
        }
        if (text.includes(secret) || text.includes(encodeURIComponent(secret))) {
          found.push(`${kind} in ${relative(world.dataDir, path)}`);
        }
      }
    }
    for (const [kind, secret] of secrets) {
      if (diagnostics.includes(secret)) {
        found.push(`${kind} in the diagnostics`);
      }
    }
    console.log(`searched ${files.length} files and the diagnostics for ${secrets.size} secrets`);
    expect(found).toEqual([]);
  });
});
