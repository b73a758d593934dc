/**
 * The sandbox's world as one versioned JSON document, so the embedded sandbox (and `npm run sandbox --
 * --state <file>`) can keep the simulated channel and the sign-in across restarts
 * ([sandbox notes](../docs/sandbox.md#what-the-saved-world-keeps)). Plain functions over `SandboxState`;
 * the file around it is `persist-file.ts`.
 *
 * - Tokens are saved as their SHA-256 digest only (token-map.ts): the client that holds a token can use it
 *   after a restart; the file alone signs nobody in. Authorization codes live minutes and are not saved.
 * - Chat lines are not saved (the app keeps its own chat history); bans that are still in force are.
 * - Which access tokens each refresh token issued is saved too (digests both sides), so revoking a refresh
 *   token after a restart still revokes them, as on Kick.
 * - Lists that grow with activity are bounded (`WORLD_LIMITS`, the newest are kept), and a world that would
 *   still come out larger than the file may be (`WORLD_FILE_MAX_BYTES`) sheds its oldest activity until it
 *   fits: the app never writes a file it would refuse to read.
 * - Pictures are saved without the API's address, which changes with the port: they get the new one back.
 */
import { z } from 'zod';
import type { SandboxApp, SandboxState } from './state';

/**
 * The document's version; a newer one is refused, never read in part. Fields added since (`grantLinks`)
 * are optional, so an older Greenroom still reads the file (it drops what it does not know).
 */
export const WORLD_VERSION = 1;

/**
 * The largest saved world read back, and so the largest written. One at the bounds of `WORLD_LIMITS` is a
 * few megabytes; a file far larger was not written by a sandbox, and reading it whole would hold the start up.
 */
export const WORLD_FILE_MAX_BYTES = 16 * 1024 * 1024;

/** Bounds on what grows with activity (the newest are kept). */
export const WORLD_LIMITS = {
  pendingRedemptions: 5000,
  resolvedRedemptions: 500,
  kicksGifts: 1000,
  follows: 5000,
  bans: 5000,
  deletedRewards: 200,
  adBreaksPerChannel: 100,
  subscriptions: 2000,
  accessTokens: 1000,
  refreshTokens: 1000,
} as const;

const int = z.number().int();
const digestHex = z.string().regex(/^[0-9a-f]{64}$/);
const ms = z.number().int().nonnegative();
const badge = z.object({ text: z.string(), type: z.string(), count: int.optional() });

const appSchema = z.object({
  appId: z.string(),
  clientId: z.string().min(1),
  clientSecret: z.string(),
  name: z.string(),
  redirectUris: z.array(z.string()),
  webhookUrl: z.string().nullable(),
  webhooksEnabled: z.boolean(),
  botUserId: int,
});

const worldSchema = z.object({
  version: z.literal(WORLD_VERSION),
  savedAtMs: ms,
  apps: z.array(appSchema),
  users: z.array(
    z.object({
      userId: int,
      username: z.string(),
      email: z.string(),
      profilePicture: z.string(),
      isVerified: z.boolean(),
      usernameColor: z.string(),
      badges: z.array(z.tuple([int, z.array(badge)])),
    }),
  ),
  channels: z.array(
    z.object({
      broadcasterUserId: int,
      slug: z.string(),
      description: z.string(),
      bannerPicture: z.string(),
      streamTitle: z.string(),
      categoryId: int,
      customTags: z.array(z.string()),
      language: z.string(),
      isMature: z.boolean(),
      isLive: z.boolean(),
      viewerCount: int,
      livestreamId: z.string().nullable(),
      startedAtMs: ms.nullable(),
      endedAtMs: ms.nullable(),
      hasStreamed: z.boolean(),
      thumbnail: z.string(),
      streamUrl: z.string(),
      streamKey: z.string(),
      activeSubscribers: int,
      canceledSubscribers: int,
    }),
  ),
  categories: z.array(
    z.object({ id: int, name: z.string(), tags: z.array(z.string()), thumbnail: z.string(), viewerCount: int }),
  ),
  bans: z.array(
    z.object({
      broadcasterUserId: int,
      userId: int,
      moderatorUserId: int,
      reason: z.string(),
      createdAtMs: ms,
      expiresAtMs: ms.nullable(),
    }),
  ),
  rewards: z.array(
    z.object({
      id: z.string(),
      broadcasterUserId: int,
      createdByClientId: z.string(),
      title: z.string(),
      description: z.string(),
      cost: int,
      backgroundColor: z.string(),
      isEnabled: z.boolean(),
      isPaused: z.boolean(),
      isUserInputRequired: z.boolean(),
      shouldRedemptionsSkipRequestQueue: z.boolean(),
      deleted: z.boolean(),
      createdAtMs: ms,
    }),
  ),
  redemptions: z.array(
    z.object({
      id: z.string(),
      rewardId: z.string(),
      broadcasterUserId: int,
      redeemerUserId: int,
      userInput: z.string(),
      status: z.enum(['pending', 'accepted', 'rejected']),
      redeemedAtMs: ms,
    }),
  ),
  kicksGifts: z.array(z.object({ broadcasterUserId: int, senderUserId: int, amount: int, createdAtMs: ms })),
  ads: z.array(
    z.tuple([
      int,
      z.object({
        optedIn: z.boolean(),
        adsBlocked: z.boolean(),
        limitMax: int,
        limitPeriodSeconds: int,
        breaks: z.array(z.object({ id: z.string(), breakDurationSeconds: int, createdAtMs: ms, source: z.string() })),
      }),
    ]),
  ),
  subscriptions: z.array(
    z.object({
      id: z.string(),
      appId: z.string(),
      clientId: z.string(),
      broadcasterUserId: int,
      event: z.string(),
      version: int,
      createdAtMs: ms,
      updatedAtMs: ms,
    }),
  ),
  accessTokens: z.array(
    z.object({
      digest: z.string().regex(/^[0-9a-f]{64}$/),
      kind: z.enum(['app', 'user']),
      clientId: z.string(),
      userId: int.nullable(),
      scopes: z.array(z.string()),
      expiresAtMs: ms,
    }),
  ),
  refreshTokens: z.array(
    z.object({
      digest: z.string().regex(/^[0-9a-f]{64}$/),
      clientId: z.string(),
      userId: int,
      scopes: z.array(z.string()),
    }),
  ),
  follows: z.array(z.string()),
  /** A refresh token's digest → the digests of the access tokens it issued; absent in older files. */
  grantLinks: z.array(z.tuple([digestHex, z.array(digestHex)])).optional(),
});

/** A saved world, as written to disk. */
export type SavedWorld = z.infer<typeof worldSchema>;

/** Why a saved world cannot be used, in a streamer's words (the words after "the saved sandbox world"). */
export type WorldProblem = { kind: 'newer'; version: number } | { kind: 'damaged'; detail: string };

export type ParsedWorld = { ok: true; world: SavedWorld } | { ok: false; problem: WorldProblem };

/** The newest `limit` of `items` by `at`, in their original order. */
function newest<T>(items: T[], limit: number, at: (item: T) => number): T[] {
  if (items.length <= limit) {
    return items;
  }
  const kept = new Set([...items].sort((a, b) => at(a) - at(b)).slice(-limit));
  return items.filter((item) => kept.has(item));
}

/** How many bytes the file holding `world` takes (`persist-file.ts` writes it with a newline). */
export function worldFileBytes(world: SavedWorld): number {
  return Buffer.byteLength(`${JSON.stringify(world)}\n`);
}

/**
 * The world now, ready for `JSON.stringify`, and never larger on disk than `maxBytes`
 * (`WORLD_FILE_MAX_BYTES`). `assetBase` is the API's address, left out of pictures.
 */
export function saveWorld(state: SandboxState, assetBase: string, maxBytes = WORLD_FILE_MAX_BYTES): SavedWorld {
  return fitWorld(snapshotWorld(state, assetBase), maxBytes);
}

/**
 * Sheds the oldest half of every list that grows with activity until `world` fits in `maxBytes`; what is
 * left (the apps, the people, the channels, live rewards) is small by construction. Returns `world`
 * unchanged when it already fits (the usual case: one measure).
 */
function fitWorld(world: SavedWorld, maxBytes: number): SavedWorld {
  let fitted = world;
  const half = <T>(items: T[]): T[] => items.slice(Math.ceil(items.length / 2));
  while (worldFileBytes(fitted) > maxBytes) {
    const before = worldFileBytes(fitted);
    const activity =
      fitted.bans.length +
      fitted.rewards.filter((r) => r.deleted).length +
      fitted.redemptions.length +
      fitted.kicksGifts.length +
      fitted.follows.length +
      fitted.ads.reduce((n, [, ads]) => n + ads.breaks.length, 0);
    if (activity > 0) {
      // Activity goes first: the sign-in and the subscriptions are what the streamer would miss.
      fitted = {
        ...fitted,
        bans: half(fitted.bans),
        rewards: [...fitted.rewards.filter((r) => !r.deleted), ...half(fitted.rewards.filter((r) => r.deleted))],
        redemptions: half(fitted.redemptions),
        kicksGifts: half(fitted.kicksGifts),
        ads: fitted.ads.map(([id, ads]) => [id, { ...ads, breaks: half(ads.breaks) }]),
        follows: half(fitted.follows),
      };
    } else {
      const accessTokens = half(fitted.accessTokens);
      const refreshTokens = half(fitted.refreshTokens);
      fitted = {
        ...fitted,
        subscriptions: half(fitted.subscriptions),
        accessTokens,
        refreshTokens,
        grantLinks: keptLinks(fitted.grantLinks ?? [], accessTokens, refreshTokens),
      };
    }
    if (worldFileBytes(fitted) >= before) {
      break; // nothing left to shed; persist-file.ts refuses to write it
    }
  }
  return fitted;
}

/** The links between tokens that are both kept. */
function keptLinks(
  links: [string, string[]][],
  accessTokens: { digest: string }[],
  refreshTokens: { digest: string }[],
): [string, string[]][] {
  const access = new Set(accessTokens.map((t) => t.digest));
  const refresh = new Set(refreshTokens.map((t) => t.digest));
  return links.flatMap(([from, to]): [string, string[]][] => {
    const kept = to.filter((d) => access.has(d));
    return refresh.has(from) && kept.length > 0 ? [[from, kept]] : [];
  });
}

function snapshotWorld(state: SandboxState, assetBase: string): SavedWorld {
  const now = state.now();
  const strip = (url: string): string => (url.startsWith(`${assetBase}/`) ? url.slice(assetBase.length) : url);
  const byTime = (r: { redeemedAtMs: number }): number => r.redeemedAtMs;
  const redemptions = [...state.redemptions.values()];
  const keptRedemptions = new Set([
    ...newest(
      redemptions.filter((r) => r.status === 'pending'),
      WORLD_LIMITS.pendingRedemptions,
      byTime,
    ),
    ...newest(
      redemptions.filter((r) => r.status !== 'pending'),
      WORLD_LIMITS.resolvedRedemptions,
      byTime,
    ),
  ]);
  const rewards = [...state.rewards.values()];
  const deletedRewards = new Set(
    newest(
      rewards.filter((r) => r.deleted),
      WORLD_LIMITS.deletedRewards,
      (r) => r.createdAtMs,
    ),
  );
  const accessTokens = state.accessTokens
    .digests()
    .filter(([, record]) => !record.revoked && record.expiresAtMs > now)
    .slice(-WORLD_LIMITS.accessTokens)
    .map(([digest, record]) => ({
      digest,
      kind: record.kind,
      clientId: record.clientId,
      userId: record.userId,
      scopes: record.scopes,
      expiresAtMs: record.expiresAtMs,
    }));
  const refreshTokens = state.refreshTokens
    .digests()
    .filter(([, record]) => !record.revoked)
    .slice(-WORLD_LIMITS.refreshTokens)
    .map(([digest, record]) => ({
      digest,
      clientId: record.clientId,
      userId: record.userId,
      scopes: record.scopes,
    }));
  return {
    version: WORLD_VERSION,
    savedAtMs: now,
    apps: [...state.apps.values()].map((app) => ({ ...app, redirectUris: [...app.redirectUris] })),
    users: [...state.users.values()].map((user) => ({
      ...user,
      profilePicture: strip(user.profilePicture),
      badges: [...user.badges.entries()],
    })),
    channels: [...state.channels.values()].map((channel) => ({
      ...channel,
      bannerPicture: strip(channel.bannerPicture),
      thumbnail: strip(channel.thumbnail),
    })),
    categories: [...state.categories.values()].map((category) => ({
      ...category,
      thumbnail: strip(category.thumbnail),
    })),
    bans: newest(
      [...state.bans.values()].filter((ban) => ban.expiresAtMs === null || ban.expiresAtMs > now),
      WORLD_LIMITS.bans,
      (ban) => ban.createdAtMs,
    ),
    rewards: rewards.filter((r) => !r.deleted || deletedRewards.has(r)),
    redemptions: redemptions.filter((r) => keptRedemptions.has(r)),
    kicksGifts: state.kicksGifts.slice(-WORLD_LIMITS.kicksGifts),
    ads: [...state.ads.entries()].map(([id, ads]) => [
      id,
      { ...ads, breaks: ads.breaks.slice(-WORLD_LIMITS.adBreaksPerChannel) },
    ]),
    subscriptions: [...state.subscriptions.values()].slice(-WORLD_LIMITS.subscriptions),
    accessTokens,
    refreshTokens,
    follows: [...state.follows].slice(-WORLD_LIMITS.follows),
    grantLinks: keptLinks(
      [...state.grantLinks].map(([from, to]) => [from, [...to]]),
      accessTokens,
      refreshTokens,
    ),
  };
}

/** Checks a document read from disk: a newer version is refused before its shape is looked at. */
export function parseWorld(data: unknown): ParsedWorld {
  const version = (data as { version?: unknown } | null)?.version;
  // Only a whole version number above ours was written by a newer Greenroom; 1.5 or 1e308 is damage.
  if (typeof version === 'number' && Number.isSafeInteger(version) && version > WORLD_VERSION) {
    return { ok: false, problem: { kind: 'newer', version } };
  }
  const parsed = worldSchema.safeParse(data);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const at = issue && issue.path.length > 0 ? `${issue.path.join('.')}: ` : '';
    return { ok: false, problem: { kind: 'damaged', detail: `${at}${issue?.message ?? 'not a saved world'}` } };
  }
  return { ok: true, world: parsed.data };
}

/** Empties the world (every record, every token); `state.apps` too. */
export function clearWorld(state: SandboxState): void {
  for (const map of [
    state.apps,
    state.users,
    state.channels,
    state.categories,
    state.chatMessages,
    state.bans,
    state.rewards,
    state.redemptions,
    state.ads,
    state.subscriptions,
    state.accessTokens,
    state.refreshTokens,
    state.authCodes,
    state.grantLinks,
  ]) {
    map.clear();
  }
  state.kicksGifts.length = 0;
  state.follows.clear();
}

/**
 * Replaces the world with a saved one. `app` (the app the sandbox was started for) keeps its object, which
 * the routes and the embedding hold on to, and takes the saved app's id, so its saved subscriptions still
 * name it; its redirect URIs are the saved ones plus its own.
 */
export function restoreWorld(state: SandboxState, world: SavedWorld, assetBase: string, app: SandboxApp): void {
  const place = (url: string): string => (url.startsWith('/') ? `${assetBase}${url}` : url);
  clearWorld(state);
  for (const saved of world.apps) {
    if (saved.clientId === app.clientId) {
      app.appId = saved.appId;
      app.redirectUris = [...new Set([...saved.redirectUris, ...app.redirectUris])];
      state.apps.set(app.clientId, app);
    } else {
      state.apps.set(saved.clientId, { ...saved });
    }
  }
  state.apps.set(app.clientId, app);
  for (const user of world.users) {
    state.users.set(user.userId, { ...user, profilePicture: place(user.profilePicture), badges: new Map(user.badges) });
  }
  for (const channel of world.channels) {
    state.channels.set(channel.broadcasterUserId, {
      ...channel,
      bannerPicture: place(channel.bannerPicture),
      thumbnail: place(channel.thumbnail),
    });
  }
  for (const category of world.categories) {
    state.categories.set(category.id, { ...category, thumbnail: place(category.thumbnail) });
  }
  for (const ban of world.bans) {
    state.bans.set(`${ban.broadcasterUserId}:${ban.userId}`, { ...ban });
  }
  world.rewards.forEach((reward) => state.rewards.set(reward.id, { ...reward }));
  world.redemptions.forEach((redemption) => state.redemptions.set(redemption.id, { ...redemption }));
  state.kicksGifts.push(...world.kicksGifts.map((gift) => ({ ...gift })));
  world.ads.forEach(([userId, ads]) => state.ads.set(userId, { ...ads, breaks: ads.breaks.map((b) => ({ ...b })) }));
  world.subscriptions.forEach((sub) => state.subscriptions.set(sub.id, { ...sub }));
  for (const { digest, ...token } of world.accessTokens) {
    state.accessTokens.restore(digest, { ...token, token: '', revoked: false });
  }
  for (const { digest, ...token } of world.refreshTokens) {
    state.refreshTokens.restore(digest, { ...token, token: '', revoked: false });
  }
  world.follows.forEach((follow) => state.follows.add(follow));
  for (const [from, to] of world.grantLinks ?? []) {
    state.grantLinks.set(from, new Set(to));
  }
}
