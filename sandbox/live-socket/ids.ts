/**
 * The ids Kick's live socket names rooms by ([reference §10.2](../../docs/kick-wire-reference.md#102-channels);
 * [what the sandbox does](../../docs/sandbox.md#kicks-live-socket-in-the-sandbox)):
 * a channel has a channel id and a chatroom id, each different from its broadcaster's user id. The sandbox
 * derives both from the user id, so a saved world needs no new field and every start gives the same ids.
 */

/** Kick's current Pusher app key and cluster ([reference §10.1](../../docs/kick-wire-reference.md#101-connection)); the sandbox accepts this key, so a client's fallback works. */
export const PUSHER_APP_KEY = '32cbd69e4b950bf97679';
export const PUSHER_CLUSTER = 'us2';

const CHANNEL_ID_OFFSET = 50_000_000;
const CHATROOM_ID_OFFSET = 70_000_000;
const ID_SPAN = 20_000_000;

export function channelIdOf(broadcasterUserId: number): number {
  return CHANNEL_ID_OFFSET + broadcasterUserId;
}

export function chatroomIdOf(broadcasterUserId: number): number {
  return CHATROOM_ID_OFFSET + broadcasterUserId;
}

/** The broadcaster behind a channel id, or null when the number is not one. */
export function broadcasterOfChannelId(channelId: number): number | null {
  const user = channelId - CHANNEL_ID_OFFSET;
  return Number.isSafeInteger(channelId) && user > 0 && user < ID_SPAN ? user : null;
}

/** Where an event goes: the five public channel names of section 10.2, by broadcaster. */
export type LiveRoom = 'chatrooms.v2' | 'chatrooms' | 'chatroom_' | 'channel.' | 'channel_';

/** Every room, in the order of section 10.2. */
export const LIVE_ROOMS: readonly LiveRoom[] = ['chatrooms.v2', 'chatrooms', 'chatroom_', 'channel.', 'channel_'];

/** The channel name a room has for a broadcaster, e.g. `chatrooms.70100001.v2`. */
export function channelName(room: LiveRoom, broadcasterUserId: number): string {
  const chatroom = chatroomIdOf(broadcasterUserId);
  const channel = channelIdOf(broadcasterUserId);
  switch (room) {
    case 'chatrooms.v2':
      return `chatrooms.${chatroom}.v2`;
    case 'chatrooms':
      return `chatrooms.${chatroom}`;
    case 'chatroom_':
      return `chatroom_${chatroom}`;
    case 'channel.':
      return `channel.${channel}`;
    case 'channel_':
      return `channel_${channel}`;
  }
}
