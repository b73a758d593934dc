/**
 * The words generated sandbox activity is made of: chat lines, Kick-style emote tokens, ban reasons, stream
 * titles, KICK messages and redemption inputs. Plain data, kept apart so the generators stay readable.
 */

/** Emotes as Kick writes them inline in chat content: `[emote:<id>:<name>]`. */
export const EMOTES = [
  { id: 37226, name: 'KEKW' },
  { id: 37227, name: 'LULW' },
  { id: 37230, name: 'POLICE' },
  { id: 37232, name: 'PeepoClap' },
  { id: 37234, name: 'Prayge' },
  { id: 39251, name: 'beeBop' },
  { id: 39261, name: 'kkHuh' },
  { id: 39275, name: 'HYPERCLAPH' },
  { id: 305040, name: 'GIGACHAD' },
  { id: 1579033, name: 'emojiAngel' },
] as const;

/** The inline token Kick puts in chat content for an emote. */
export function emoteToken(emote: { id: number; name: string }): string {
  return `[emote:${emote.id}:${emote.name}]`;
}

/** Ordinary viewer chat. */
export const CHAT_LINES = [
  'hello chat',
  'what did I miss?',
  'W stream',
  'this is so clean',
  'no way he hits this',
  'LETS GOOO',
  'first time catching a stream, love the vibes',
  'can you turn the game volume up a bit?',
  'what keyboard is that?',
  'gg',
  'that was actually insane',
  'chat is moving fast today',
  'lurking while I work',
  'who else is here from the clip',
  'is this a new setup?',
  'hydrate streamer',
  'bro really said that',
  'how long have you been live?',
  'the music is a vibe',
  'Ls in chat for that play',
  'he is cooking',
  'clip it',
  'ayo',
  'back from dinner, what happened',
  'greetings from Brazil',
  'hi from Germany',
  'the comeback is real',
  'nah that was lag',
  'respect',
  'ok that one was funny',
] as const;

/** Short answers, for replies to earlier messages. */
export const REPLY_LINES = [
  'fr',
  'true',
  'no way',
  'agreed',
  'lol exactly',
  'same here',
  'nah I disagree',
  'you are so right',
  'real',
  'this ^',
] as const;

/** Lines a chat storm is made of: short, loud, emote-heavy. */
export const STORM_LINES = [
  'W',
  'LETS GO',
  'HUGE',
  'OMEGALUL',
  'NO SHOT',
  'CLIP IT',
  'GG',
  'POG',
  'WWWW',
  'HOLY',
] as const;

/** Reasons moderators give (each within Kick's 100-character limit). */
export const BAN_REASONS = [
  'spam',
  'hate speech',
  'self-promotion',
  'harassing other viewers',
  'spoilers',
  'bot account',
  'ignoring mod warnings',
  'excessive caps',
] as const;

/** Timeout lengths moderators actually pick, in minutes (Kick allows 1–10080). */
export const TIMEOUT_MINUTES = [1, 5, 10, 30, 60, 1440] as const;

/** Titles a streamer switches between. */
export const STREAM_TITLES = [
  'Chill stream with chat',
  'Ranked grind until we hit the next tier',
  'First playthrough, no spoilers please',
  'Subathon day 3',
  'Road to 10k followers',
  'Late night vibes',
  'Viewer games, join the lobby',
  'Reacting to your clips',
] as const;

/** Messages sent with KICKs; often none. */
export const KICKS_MESSAGES = [
  '',
  '',
  'love the stream!',
  'for the grind',
  'keep it up',
  'W streamer',
  'hydrate!',
] as const;

/** What viewers type when a reward asks for input. */
export const REDEMPTION_INPUTS = [
  'play the next song in the queue',
  'do 10 push-ups',
  'say hi to my friend Sam',
  'switch to the other map',
  'read this in a pirate voice',
  'tell us a joke',
] as const;

/** Rewards the sandbox creates (owned by the app) when a channel has none a viewer could redeem. */
export const DEFAULT_REWARDS = [
  { title: 'Hydrate!', description: 'Make the streamer drink some water', cost: 100, input: false },
  { title: 'Song request', description: 'Tell us what to play next', cost: 500, input: true },
  { title: 'Pick the next game', description: 'Choose what we play after this', cost: 2500, input: true },
] as const;

/** What raiders shout on arrival. */
export const RAID_LINES = ['RAID', 'raid hype', 'we are here from', 'hello from the raid', 'RAIDERS'] as const;
