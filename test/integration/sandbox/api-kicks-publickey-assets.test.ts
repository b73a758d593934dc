/**
 * KICKs leaderboard ([reference §3.8](../../../docs/kick-wire-reference.md#38-kicks)), the public key ([§3.9](../../../docs/kick-wire-reference.md#39-public-key)) and the sandbox-only picture routes, against a
 * real sandbox over HTTP. The sandbox runs on a frozen clock so month and week boundaries are exact.
 */
import { createPublicKey, createVerify, createSign } from 'node:crypto';
import { inflateSync } from 'node:zlib';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createSigningKeys, type Sandbox } from '../../../sandbox/index';
import { FIRST_VIEWER_USER_ID, MODERATOR_USER_ID, STREAMER_USER_ID } from '../../../sandbox/world';
import { KICK_SCOPES } from '../../../shared/kick/scopes';
import { call, mintAppToken, mintUserToken, startSandbox } from '../../helpers/sandbox';

const keys = createSigningKeys();
/** Wednesday 2026-06-17 12:00 UTC: the ISO week began Monday 06-15, the month on 06-01. */
const NOW = Date.UTC(2026, 5, 17, 12, 0, 0);
const DAY = 86_400_000;
const [A, B, C] = [FIRST_VIEWER_USER_ID, FIRST_VIEWER_USER_ID + 1, FIRST_VIEWER_USER_ID + 2];

let sandbox: Sandbox;
let api: string;
let logs: string[];

beforeEach(async () => {
  logs = [];
  sandbox = await startSandbox({ keys, clock: { now: () => NOW }, log: (line) => logs.push(line) });
  api = sandbox.urls.api;
});
afterEach(async () => {
  await sandbox.close();
  expect(logs.filter((line) => line.includes('handler error'))).toEqual([]);
});

function gift(senderUserId: number, amount: number, createdAtMs: number, broadcasterUserId = STREAMER_USER_ID): void {
  sandbox.ctx.state.kicksGifts.push({ broadcasterUserId, senderUserId, amount, createdAtMs });
}

const entry = (userId: number, amount: number, rank: number) => ({
  user_id: userId,
  username: sandbox.ctx.state.user(userId)!.username,
  gifted_amount: amount,
  rank,
});

describe('GET /public/v1/kicks/leaderboard', () => {
  beforeEach(() => {
    gift(A, 100, Date.UTC(2025, 11, 24)); // last year: lifetime only
    gift(B, 50, Date.UTC(2026, 5, 3)); // this month, before this week
    gift(C, 30, Date.UTC(2026, 5, 15, 0, 0, 0)); // the first instant of this week
    gift(A, 10, NOW - 1000); // this week
    gift(B, 20, Date.UTC(2026, 5, 14, 23, 59, 59)); // Sunday: last week, this month
    gift(C, 999, NOW - DAY, MODERATOR_USER_ID); // another channel's gift never counts
  });

  it('ranks lifetime, calendar month and ISO week for the token broadcaster', async () => {
    const res = await call(api, 'GET', '/public/v1/kicks/leaderboard', { token: mintUserToken(sandbox) });
    expect(res.status).toBe(200);
    expect(res.json).toEqual({
      data: {
        lifetime: [entry(A, 110, 1), entry(B, 70, 2), entry(C, 30, 3)],
        month: [entry(B, 70, 1), entry(C, 30, 2), entry(A, 10, 3)],
        week: [entry(C, 30, 1), entry(A, 10, 2)],
      },
      message: 'OK',
    });
  });

  it('cuts each board at top and breaks ties by user id', async () => {
    gift(C, 80, NOW - 2000); // C now has 110 lifetime, tied with A
    const res = await call(api, 'GET', '/public/v1/kicks/leaderboard', {
      token: mintUserToken(sandbox),
      query: [['top', 2]],
    });
    expect(res.json.data).toEqual({
      lifetime: [entry(A, 110, 1), entry(C, 110, 2)],
      month: [entry(C, 110, 1), entry(B, 70, 2)],
      week: [entry(C, 110, 1), entry(A, 10, 2)],
    });
  });

  it('starts a fresh week on Monday and a fresh month on the 1st', async () => {
    sandbox.ctx.clock.advance(Date.UTC(2026, 5, 22) - NOW); // Monday 06-22 00:00
    const monday = await call(api, 'GET', '/public/v1/kicks/leaderboard', { token: mintUserToken(sandbox) });
    expect(monday.status).toBe(200);
    expect(monday.json.data.week).toEqual([]);
    expect(monday.json.data.month).toHaveLength(3);
    sandbox.ctx.clock.advance(Date.UTC(2026, 6, 1) - Date.UTC(2026, 5, 22)); // 07-01
    const july = await call(api, 'GET', '/public/v1/kicks/leaderboard', { token: mintUserToken(sandbox) });
    expect(july.json.data).toEqual({
      lifetime: [entry(A, 110, 1), entry(B, 70, 2), entry(C, 30, 3)],
      month: [],
      week: [],
    });
  });

  it('answers empty boards for a channel without gifts', async () => {
    const res = await call(api, 'GET', '/public/v1/kicks/leaderboard', {
      token: mintUserToken(sandbox, KICK_SCOPES, FIRST_VIEWER_USER_ID + 9),
    });
    expect(res.json).toEqual({ data: { lifetime: [], month: [], week: [] }, message: 'OK' });
  });

  it.each([
    ['0', 'top: must be at least 1'],
    ['101', 'top: must be at most 100'],
    ['ten', 'top: must be an integer'],
    ['1.5', 'top: must be an integer'],
  ])('rejects top=%s with "%s"', async (top, detail) => {
    const res = await call(api, 'GET', '/public/v1/kicks/leaderboard', {
      token: mintUserToken(sandbox),
      query: [['top', top]],
    });
    expect(res.status).toBe(400);
    expect(res.json).toEqual({ data: detail, message: 'Bad request' });
  });

  it('accepts top=100, and defaults to 10', async () => {
    for (let i = 0; i < 12; i++) {
      gift(FIRST_VIEWER_USER_ID + 3 + i, 1 + i, NOW - 5000);
    }
    const token = mintUserToken(sandbox);
    const all = await call(api, 'GET', '/public/v1/kicks/leaderboard', { token, query: [['top', 100]] });
    expect(all.json.data.lifetime).toHaveLength(15);
    const dflt = await call(api, 'GET', '/public/v1/kicks/leaderboard', { token });
    expect(dflt.json.data.lifetime).toHaveLength(10);
    expect((dflt.json.data.lifetime as { rank: number }[]).map((e) => e.rank)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
  });

  it('needs a live user token with kicks:read', async () => {
    const path = '/public/v1/kicks/leaderboard';
    expect((await call(api, 'GET', path, { token: mintAppToken(sandbox) })).json).toEqual({
      data: 'a user access token is required',
      message: 'Forbidden',
    });
    const scopeless = mintUserToken(
      sandbox,
      KICK_SCOPES.filter((s) => s !== 'kicks:read'),
    );
    expect((await call(api, 'GET', path, { token: scopeless })).json.data).toBe('missing scope: kicks:read');
    expect((await call(api, 'GET', path)).status).toBe(401);
    const token = mintUserToken(sandbox, ['kicks:read'], STREAMER_USER_ID, 100);
    expect((await call(api, 'GET', path, { token })).status).toBe(200);
    sandbox.ctx.clock.advance(100_000);
    expect((await call(api, 'GET', path, { token })).status).toBe(401);
  });
});

describe('GET /public/v1/public-key', () => {
  it('serves the signing key as an RSA-2048 SPKI PEM without a token', async () => {
    const res = await call(api, 'GET', '/public/v1/public-key');
    expect(res.status).toBe(200);
    expect(res.json).toEqual({ data: { public_key: sandbox.ctx.keys.publicKeyPem }, message: 'OK' });
    const pem = res.json.data.public_key as string;
    expect(pem).toMatch(/^-----BEGIN PUBLIC KEY-----\n[\s\S]+\n-----END PUBLIC KEY-----\n?$/);
    const key = createPublicKey({ key: pem, format: 'pem', type: 'spki' });
    expect(key.asymmetricKeyType).toBe('rsa');
    expect(key.asymmetricKeyDetails).toMatchObject({ modulusLength: 2048, publicExponent: 65537n });
    // It is the key webhooks are signed with: a signature made with the sandbox's private key verifies.
    const signed = Buffer.from('01J0000000000000000000000.2026-06-17T12:00:00Z.{}');
    const signature = createSign('RSA-SHA256').update(signed).sign(sandbox.ctx.keys.privateKey);
    expect(createVerify('RSA-SHA256').update(signed).verify(key, signature)).toBe(true);
  });

  it('ignores a bad or expired token (no auth needed)', async () => {
    expect((await call(api, 'GET', '/public/v1/public-key', { token: 'garbage' })).status).toBe(200);
  });
});

describe('sandbox pictures', () => {
  interface Png {
    width: number;
    height: number;
    pixels: Buffer;
  }

  /** Parses and checks a PNG: signature, every chunk CRC, IHDR, and the inflated size of IDAT. */
  function parsePng(bytes: Buffer): Png {
    expect(bytes.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
    let at = 8;
    const chunks: { type: string; data: Buffer }[] = [];
    while (at < bytes.length) {
      const length = bytes.readUInt32BE(at);
      const type = bytes.toString('ascii', at + 4, at + 8);
      const data = bytes.subarray(at + 8, at + 8 + length);
      const crc = bytes.readUInt32BE(at + 8 + length);
      expect(crc).toBe(crc32Of(bytes.subarray(at + 4, at + 8 + length)));
      chunks.push({ type, data });
      at += 12 + length;
    }
    expect(chunks.map((c) => c.type)).toEqual(['IHDR', 'IDAT', 'IEND']);
    const ihdr = chunks[0]!.data;
    const width = ihdr.readUInt32BE(0);
    const height = ihdr.readUInt32BE(4);
    expect([...ihdr.subarray(8)]).toEqual([8, 2, 0, 0, 0]);
    const pixels = inflateSync(chunks[1]!.data);
    expect(pixels.length).toBe((1 + width * 3) * height);
    return { width, height, pixels };
  }

  /** A table-free CRC-32 written independently of the server's, to check its chunks. */
  function crc32Of(data: Buffer): number {
    let crc = 0xffffffff;
    for (const byte of data) {
      crc ^= byte;
      for (let k = 0; k < 8; k++) {
        crc = crc & 1 ? (crc >>> 1) ^ 0xedb88320 : crc >>> 1;
      }
    }
    return (crc ^ 0xffffffff) >>> 0;
  }

  it('serves the avatar, banner, thumbnail and category URLs the API hands out, as cacheable PNGs', async () => {
    const token = mintUserToken(sandbox);
    const user = (await call(api, 'GET', '/public/v1/users', { token })).json.data[0];
    const channel = (await call(api, 'GET', '/public/v1/channels', { token })).json.data[0];
    const urls: [string, number, number][] = [
      [user.profile_picture, 64, 64],
      [channel.banner_picture, 160, 40],
      [channel.stream.thumbnail, 128, 72],
      [channel.category.thumbnail, 90, 120],
    ];
    for (const [url, width, height] of urls) {
      expect(url.startsWith(`${api}/assets/`)).toBe(true);
      const res = await fetch(url);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('image/png');
      expect(res.headers.get('cache-control')).toMatch(/max-age=\d+/);
      const png = parsePng(Buffer.from(await res.arrayBuffer()));
      expect([png.width, png.height]).toEqual([width, height]);
    }
  });

  it('draws the same picture for the same id and a different one for another id', async () => {
    const get = async (path: string) => Buffer.from(await (await fetch(`${api}${path}`)).arrayBuffer());
    const first = await get(`/assets/avatars/${STREAMER_USER_ID}.png`);
    expect(await get(`/assets/avatars/${STREAMER_USER_ID}.png`)).toEqual(first);
    const other = parsePng(await get(`/assets/avatars/${MODERATOR_USER_ID}.png`));
    expect(other.pixels.subarray(1, 4)).not.toEqual(parsePng(first).pixels.subarray(1, 4));
  });

  it('serves emotes at /emotes/<id>/fullsize', async () => {
    const res = await fetch(`${api}/emotes/37226/fullsize`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/png');
    const png = parsePng(Buffer.from(await res.arrayBuffer()));
    expect([png.width, png.height]).toEqual([32, 32]);
  });

  it.each([
    '/assets/secrets/1.png',
    '/assets/avatars/1.gif',
    '/assets/avatars/..%2Fx.png',
    '/emotes/abc/fullsize',
    '/emotes/1/small',
  ])('answers 404 for %s', async (path) => {
    const res = await call(api, 'GET', path);
    expect(res.status).toBe(404);
  });
});
