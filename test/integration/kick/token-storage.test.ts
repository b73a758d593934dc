import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AdjustableClock } from '../../../electron/core/clock';
import { createNodeSecretStore, SECRETS_FILE_NAME } from '../../../electron/secrets/node-secret-store';
import { SECRET_KEYS } from '../../../electron/secrets/secret-store';
import type { Sandbox } from '../../../sandbox/index';
import { createTestBrowser, kickOnSandbox } from '../../helpers/kick-on-sandbox';
import { startSandbox } from '../../helpers/sandbox';

/** Every encoding of a secret a careless store might leave on disk. */
function encodings(secret: string): string[] {
  const bytes = Buffer.from(secret, 'utf8');
  return [
    secret,
    bytes.toString('base64'),
    bytes.toString('base64url'),
    bytes.toString('hex'),
    bytes.toString('hex').toUpperCase(),
    encodeURIComponent(secret),
    JSON.stringify(secret).slice(1, -1),
  ];
}

describe('token storage on disk', () => {
  let sandbox: Sandbox;
  let dir: string;
  beforeEach(async () => {
    sandbox = await startSandbox();
    dir = mkdtempSync(join(tmpdir(), 'greenroom-store-'));
  });
  afterEach(async () => {
    await sandbox.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('keeps no token and no client secret in the store file, in any encoding, and restores them after a restart', async () => {
    const store = createNodeSecretStore(dir);
    const clock = new AdjustableClock();
    await store.set(SECRET_KEYS.clientSecret, sandbox.ctx.app.clientSecret);
    const browser = createTestBrowser(sandbox);
    const kick = kickOnSandbox(sandbox, { store, clock, openExternal: browser.open });
    await kick.signIn();
    await kick.appToken.get();
    await browser.settled();

    const userToken = JSON.parse((await store.get(SECRET_KEYS.userToken))!) as {
      accessToken: string;
      refreshToken: string;
    };
    const appToken = JSON.parse((await store.get(SECRET_KEYS.appToken))!) as { accessToken: string };
    const secrets = [userToken.accessToken, userToken.refreshToken, appToken.accessToken, sandbox.ctx.app.clientSecret];
    // The tokens are real: the sandbox knows them.
    expect(sandbox.ctx.state.accessTokens.has(userToken.accessToken)).toBe(true);
    expect(sandbox.ctx.state.refreshTokens.has(userToken.refreshToken)).toBe(true);

    const raw = readFileSync(join(dir, `${SECRETS_FILE_NAME}.json`), 'utf8');
    for (const secret of secrets) {
      for (const encoded of encodings(secret)) {
        expect(raw).not.toContain(encoded);
      }
    }
    await kick.close();

    // A restart reads the same session back from the encrypted store.
    const restarted = kickOnSandbox(sandbox, { store: createNodeSecretStore(dir), clock });
    await restarted.session.load();
    expect(restarted.session.state().status).toBe('signed-in');
    await expect(restarted.client.fetchCurrentUser()).resolves.toMatchObject({
      user_id: sandbox.describe().broadcasterUserId,
    });
    await restarted.close();
  });

  it('sign-out revokes both tokens at the sandbox and wipes them from the store', async () => {
    const store = createNodeSecretStore(dir);
    const browser = createTestBrowser(sandbox);
    const kick = kickOnSandbox(sandbox, { store, openExternal: browser.open });
    await kick.signIn();
    await browser.settled();
    const { accessToken, refreshToken } = JSON.parse((await store.get(SECRET_KEYS.userToken))!) as {
      accessToken: string;
      refreshToken: string;
    };
    await expect(kick.signOut()).resolves.toEqual({ revoked: true });
    expect(sandbox.ctx.state.accessTokens.get(accessToken)?.revoked).toBe(true);
    expect(sandbox.ctx.state.refreshTokens.get(refreshToken)?.revoked).toBe(true);
    expect(await store.get(SECRET_KEYS.userToken)).toBeNull();
    await kick.close();
  });
});
