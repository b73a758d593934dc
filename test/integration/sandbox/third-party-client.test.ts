/**
 * An unmodified third-party Kick client (@nekiro/kick-api, written against Kick's docs, never against the
 * sandbox) pointed at `npm run sandbox -- --port 0`: client credentials, the PKCE code exchange, channels,
 * livestreams, categories and chat all work through its own code paths.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { client as KickApiClient } from '@nekiro/kick-api';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SandboxDescription } from '../../../sandbox/index';

const REDIRECT = 'http://localhost:3999/callback';
let sandbox: ChildProcess;
let described: SandboxDescription;
let dataDir: string;

beforeAll(async () => {
  // The sandbox publishes its admin URL in Greenroom's data dir: a temporary one here.
  dataDir = mkdtempSync(join(tmpdir(), 'greenroom-third-party-'));
  sandbox = spawn(
    'node_modules/.bin/tsx',
    ['sandbox/cli.ts', '--port', '0', '--auto-approve', '--redirect-uri', REDIRECT],
    {
      env: { ...process.env, GREENROOM_DATA_DIR: dataDir },
      stdio: ['ignore', 'pipe', 'ignore'],
    },
  );
  described = await new Promise<SandboxDescription>((resolve, reject) => {
    sandbox.once('exit', (code) => reject(new Error(`sandbox exited (${code})`)));
    createInterface({ input: sandbox.stdout! }).once('line', (line) => resolve(JSON.parse(line) as SandboxDescription));
  });
}, 30_000);

afterAll(async () => {
  const exited = new Promise((resolve) => sandbox.once('exit', resolve));
  sandbox.kill('SIGINT');
  await exited;
  rmSync(dataDir, { recursive: true, force: true });
});

describe('a third-party Kick client against the standalone sandbox', () => {
  it('prints everything a client needs as one JSON line', () => {
    expect(described).toMatchObject({
      authUrl: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+$/),
      apiUrl: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+$/),
      adminUrl: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+$/),
      clientId: expect.any(String),
      clientSecret: expect.any(String),
      broadcasterUserId: expect.any(Number),
    });
  });

  it('reads channels, livestreams and categories with an app token from client credentials', async () => {
    const kick = new KickApiClient({
      clientId: described.clientId,
      clientSecret: described.clientSecret,
      baseUrl: described.apiUrl,
      oauthUrl: described.authUrl,
    });
    const [channel] = await kick.channels.getChannels({ broadcaster_user_id: [described.broadcasterUserId] });
    expect(channel).toMatchObject({ broadcaster_user_id: described.broadcasterUserId, slug: 'sandbox-streamer' });
    const bySlug = await kick.channels.getChannel('sandbox-streamer');
    expect(bySlug).toMatchObject({ broadcaster_user_id: described.broadcasterUserId });
    const live = await kick.livestreams.getLivestreams({ limit: 5, sort: 'viewer_count' });
    expect(live.length).toBe(5);
    const categories = await kick.categories.getCategories({ q: 'Just' });
    expect(categories.map((c) => c.name)).toContain('Just Chatting');
    await expect(kick.categories.getCategory(categories[0]!.id)).resolves.toMatchObject({ id: categories[0]!.id });
  });

  it('signs in with PKCE, then sends chat and updates the channel as the streamer', async () => {
    const kick = new KickApiClient({
      clientId: described.clientId,
      clientSecret: described.clientSecret,
      baseUrl: described.apiUrl,
      oauthUrl: described.authUrl,
      redirectUri: REDIRECT,
    });
    const pkce = kick.generatePKCEParams();
    const authorizeUrl = kick.getAuthorizationUrl(pkce, ['user:read', 'channel:read', 'channel:write', 'chat:write']);
    // Play the browser: the sandbox approves at once (--auto-approve) and redirects with the code.
    const consent = await request(authorizeUrl);
    await consent.body.text();
    expect(consent.statusCode).toBe(302);
    const callback = new URL(String(consent.headers.location));
    expect(callback.searchParams.get('state')).toBe(pkce.state);
    const token = await kick.exchangeCodeForToken({
      code: callback.searchParams.get('code')!,
      codeVerifier: pkce.codeVerifier,
    });
    expect(token).toMatchObject({
      tokenType: 'Bearer',
      refreshToken: expect.any(String),
      scope: 'user:read channel:read channel:write chat:write',
    });

    const sent = await kick.chat.postMessage({
      type: 'user',
      broadcaster_user_id: described.broadcasterUserId,
      content: 'hello from a third-party client',
    });
    expect(sent).toMatchObject({ is_sent: true, message_id: expect.any(String) });
    const bot = await kick.chat.postMessage({
      type: 'bot',
      content: 'and from its bot',
      reply_to_message_id: sent.message_id,
    });
    expect(bot.is_sent).toBe(true);
    // Kick answers PATCH /channels with 204 and no body ([reference §3.2](../../../docs/kick-wire-reference.md#32-channels)); this library then calls
    // response.json() and throws, against Kick as here. The update itself is applied.
    await expect(
      kick.channels.updateChannel({ stream_title: 'Set by a third-party client', custom_tags: ['Sandbox'] }),
    ).rejects.toThrow(/channels failed/);
    const [channel] = await kick.channels.getChannels({ broadcaster_user_id: [described.broadcasterUserId] });
    expect(channel).toMatchObject({
      stream_title: 'Set by a third-party client',
      stream: { custom_tags: ['Sandbox'] },
    });
    const chat = await request(new URL(`/channels/${described.broadcasterUserId}/chat?limit=5`, described.adminUrl), {
      headers: { authorization: `Bearer ${described.adminToken}` },
    });
    expect(JSON.stringify(await chat.body.json())).toContain('hello from a third-party client');
  });
});
