/**
 * The sandbox's starting world: one app, the streamer who uses it, a bot, a moderator, a crowd of viewers,
 * other live channels to list, and a category catalogue. Ids and names are fixed so tests and docs can name
 * them; everything else is made fresh per sandbox.
 */
import type { KickBadge } from '../shared/kick/events';
import { createOpaqueToken, createUlid, createUuid } from '../electron/core/ids';
import type { SandboxApp, SandboxChannel, SandboxState, SandboxUser } from './state';

export const DEFAULT_CLIENT_ID = '01JSANDB0XGREENR00MC11ENT0';
export const DEFAULT_CLIENT_SECRET = 'sandbox-client-secret-do-not-use-in-production';
export const STREAMER_USER_ID = 100001;
export const BOT_USER_ID = 100002;
export const MODERATOR_USER_ID = 100003;
export const FIRST_VIEWER_USER_ID = 100100;
export const FIRST_OTHER_STREAMER_USER_ID = 200001;

export interface WorldOptions {
  clientId?: string;
  clientSecret?: string;
  /** Redirect URIs registered for the app, as pasted into Kick's developer dashboard. */
  redirectUris?: string[];
  webhookUrl?: string | null;
  /** Base URL the sandbox serves pictures and emotes from (the API server's own URL). */
  assetBaseUrl: string;
}

export const DEFAULT_REDIRECT_URIS = ['http://127.0.0.1:3000/callback', 'http://localhost:3000/callback'];

const VIEWER_NAMES = [
  'pixelpanda',
  'nightowl_tv',
  'kappa_krusader',
  'lunarfox',
  'glitchgoblin',
  'byte_bard',
  'turbo_tortoise',
  'mossy_mage',
  'crit_happens',
  'sable_sky',
  'noodle_ninja',
  'velvet_viper',
  'quietquasar',
  'rusty_rook',
  'saltyspud',
  'frostbyte',
  'copper_comet',
  'echo_elk',
  'marble_moth',
  'dusty_drake',
  'hazel_heron',
  'ivory_imp',
  'jade_jackal',
  'karma_koi',
  'lemon_lynx',
  'mango_mantis',
  'nova_newt',
  'opal_otter',
  'pepper_puma',
  'quill_quokka',
  'raven_rift',
  'sunny_sloth',
];

const STREAMER_NAMES = [
  'trainwreckstv_sb',
  'xqc_sb',
  'adinross_sb',
  'amouranth_sb',
  'roshtein_sb',
  'destiny_sb',
  'iceposeidon_sb',
  'westcol_sb',
  'ac7ionman_sb',
  'suspendas_sb',
  'nickmercs_sb',
  'drdisrespect_sb',
];

const CATEGORIES: [string, string[]][] = [
  ['Just Chatting', ['IRL', 'Talk']],
  ['Slots & Casino', ['Gambling', 'Casino']],
  ['Grand Theft Auto V', ['Action', 'Open World', 'Roleplay']],
  ['Counter-Strike 2', ['FPS', 'Shooter', 'Competitive']],
  ['Fortnite', ['Battle Royale', 'Shooter']],
  ['League of Legends', ['MOBA', 'Strategy', 'Competitive']],
  ['Minecraft', ['Sandbox', 'Survival']],
  ['Valorant', ['FPS', 'Shooter', 'Competitive']],
  ['Call of Duty: Warzone', ['Battle Royale', 'FPS']],
  ['Music', ['Creative', 'Performance']],
  ['Art', ['Creative']],
  ['Pools, Hot Tubs & Beaches', ['IRL']],
  ['Rust', ['Survival', 'Open World']],
  ['Apex Legends', ['Battle Royale', 'FPS']],
  ['Dota 2', ['MOBA', 'Strategy']],
  ['Elden Ring', ['RPG', 'Soulslike', 'Action']],
  ['Dead by Daylight', ['Horror', 'Multiplayer']],
  ['World of Warcraft', ['MMORPG', 'RPG']],
  ['Chess', ['Strategy', 'Board Game']],
  ['Poker', ['Gambling', 'Card Game']],
  ['Sports', ['IRL', 'Sports']],
  ['Travel & Outdoors', ['IRL', 'Travel']],
  ['Cooking', ['IRL', 'Creative']],
  ['Software & Game Development', ['Creative', 'Technology']],
  ['Escape from Tarkov', ['FPS', 'Survival']],
  ['Overwatch 2', ['FPS', 'Hero Shooter']],
  ['Rocket League', ['Sports', 'Competitive']],
  ['EA Sports FC 26', ['Sports', 'Football']],
  ['Retro', ['Classic']],
  ['Talk Shows & Podcasts', ['Talk']],
];

function picture(base: string, kind: string, id: number | string): string {
  return `${base}/assets/${kind}/${id}.png`;
}

function makeUser(base: string, userId: number, username: string, color: string): SandboxUser {
  return {
    userId,
    username,
    email: `${username}@sandbox.greenroom.invalid`,
    profilePicture: picture(base, 'avatars', userId),
    isVerified: false,
    usernameColor: color,
    badges: new Map(),
  };
}

function makeChannel(base: string, user: SandboxUser, title: string, categoryId: number): SandboxChannel {
  return {
    broadcasterUserId: user.userId,
    slug: user.username.replace(/_/g, '-'),
    description: `${user.username}'s channel on the Greenroom sandbox`,
    bannerPicture: picture(base, 'banners', user.userId),
    streamTitle: title,
    categoryId,
    customTags: [],
    language: 'en',
    isMature: false,
    isLive: false,
    viewerCount: 0,
    livestreamId: null,
    startedAtMs: null,
    endedAtMs: null,
    hasStreamed: false,
    thumbnail: picture(base, 'thumbnails', user.userId),
    streamUrl: 'rtmps://sandbox-ingest.greenroom.invalid:443/app/',
    streamKey: `sk_sandbox_${createOpaqueToken(12)}`,
    activeSubscribers: 0,
    canceledSubscribers: 0,
  };
}

const COLOURS = ['#FF5733', '#33C1FF', '#9B59B6', '#2ECC71', '#F1C40F', '#E67E22', '#1ABC9C', '#E91E63'];

/** Fills an empty state with the default world and returns the default app. */
export function createWorld(state: SandboxState, options: WorldOptions): SandboxApp {
  const base = options.assetBaseUrl;
  const now = state.now();

  CATEGORIES.forEach(([name, tags], i) => {
    const id = 101 + i;
    state.categories.set(id, { id, name, tags, thumbnail: picture(base, 'categories', id), viewerCount: 0 });
  });

  const streamer = makeUser(base, STREAMER_USER_ID, 'sandbox_streamer', '#53FC18');
  streamer.isVerified = true;
  const bot = makeUser(base, BOT_USER_ID, 'greenroom_bot', '#00E701');
  const moderator = makeUser(base, MODERATOR_USER_ID, 'sandbox_mod', '#1E90FF');
  const modBadge: KickBadge = { text: 'Moderator', type: 'moderator' };
  moderator.badges.set(STREAMER_USER_ID, [modBadge]);
  bot.badges.set(STREAMER_USER_ID, [{ text: 'Bot', type: 'bot' }]);
  streamer.badges.set(STREAMER_USER_ID, [{ text: 'Broadcaster', type: 'broadcaster' }]);
  for (const user of [streamer, bot, moderator]) {
    state.users.set(user.userId, user);
  }

  VIEWER_NAMES.forEach((name, i) => {
    const user = makeUser(base, FIRST_VIEWER_USER_ID + i, name, COLOURS[i % COLOURS.length]!);
    if (i % 3 === 0) {
      user.badges.set(STREAMER_USER_ID, [{ text: 'Subscriber', type: 'subscriber', count: (i % 12) + 1 }]);
    }
    if (i % 7 === 0) {
      const badges = user.badges.get(STREAMER_USER_ID) ?? [];
      user.badges.set(STREAMER_USER_ID, [...badges, { text: 'Sub Gifter', type: 'sub_gifter', count: 5 }]);
    }
    if (i % 11 === 0) {
      user.badges.set(STREAMER_USER_ID, [...(user.badges.get(STREAMER_USER_ID) ?? []), { text: 'VIP', type: 'vip' }]);
    }
    state.users.set(user.userId, user);
  });

  const streamerChannel = makeChannel(base, streamer, 'Testing Greenroom in the sandbox', 101);
  streamerChannel.customTags = ['English', 'Chill'];
  streamerChannel.hasStreamed = true;
  streamerChannel.activeSubscribers = 42;
  streamerChannel.canceledSubscribers = 3;
  state.channels.set(streamer.userId, streamerChannel);
  for (const user of [bot, moderator]) {
    state.channels.set(user.userId, makeChannel(base, user, '', 0));
  }

  // Other streamers are live from the start (staggered start times) so listings have content.
  STREAMER_NAMES.forEach((name, i) => {
    const user = makeUser(base, FIRST_OTHER_STREAMER_USER_ID + i, name, COLOURS[(i + 3) % COLOURS.length]!);
    user.isVerified = i % 2 === 0;
    state.users.set(user.userId, user);
    const categoryId = 101 + (i % CATEGORIES.length);
    const channel = makeChannel(base, user, `${name} live: day ${i + 1} of the grind`, categoryId);
    channel.isLive = true;
    channel.hasStreamed = true;
    channel.livestreamId = createUuid();
    channel.startedAtMs = now - (i + 1) * 17 * 60_000;
    channel.viewerCount = 500 + ((i * 7919) % 25_000);
    channel.language = i % 4 === 3 ? 'es' : 'en';
    channel.isMature = i % 5 === 4;
    channel.customTags = ['English', 'Sandbox'].slice(0, 1 + (i % 2));
    state.channels.set(user.userId, channel);
    const category = state.categories.get(categoryId)!;
    category.viewerCount += channel.viewerCount;
  });

  const app: SandboxApp = {
    appId: createUlid(now),
    clientId: options.clientId ?? DEFAULT_CLIENT_ID,
    clientSecret: options.clientSecret ?? DEFAULT_CLIENT_SECRET,
    name: 'Greenroom (sandbox)',
    redirectUris: [...(options.redirectUris ?? DEFAULT_REDIRECT_URIS)],
    webhookUrl: options.webhookUrl ?? null,
    webhooksEnabled: true,
    botUserId: BOT_USER_ID,
  };
  state.apps.set(app.clientId, app);
  return app;
}

/** The most distinct chatters one chat trigger can ask for (`chatters`). */
export const CHATTERS_MAX = 1000;

/**
 * The first `count` viewers not banned in the channel, lowest id first, for a chat trigger that wants that many
 * distinct chatters: the seeded viewers, then as many crowd viewers (`crowd_0300`, …, ids after the last viewer)
 * as it takes. A crowd viewer, once made, is a viewer like any other (follows and subs may pick them too).
 */
export function chatterPool(
  state: SandboxState,
  broadcasterUserId: number,
  count: number,
  assetBaseUrl: string,
): number[] {
  const viewers = viewerIds(state).sort((a, b) => a - b);
  const ids = viewers.filter((id) => id !== broadcasterUserId && !state.activeBan(broadcasterUserId, id));
  for (let next = (viewers.at(-1) ?? FIRST_VIEWER_USER_ID - 1) + 1; ids.length < count; next++) {
    const name = `crowd_${String(next - FIRST_VIEWER_USER_ID).padStart(4, '0')}`;
    if (state.userByName(name)) {
      continue;
    }
    state.users.set(next, makeUser(assetBaseUrl, next, name, COLOURS[next % COLOURS.length]!));
    ids.push(next);
  }
  return ids.slice(0, count);
}

/** The viewers' user ids, in order; triggers and scenarios pick senders from these. */
export function viewerIds(state: SandboxState): number[] {
  return [...state.users.keys()].filter((id) => id >= FIRST_VIEWER_USER_ID && id < FIRST_OTHER_STREAMER_USER_ID);
}
