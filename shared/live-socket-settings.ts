/**
 * The settings of Kick's live chat connection ([Settings](../docs/settings.md#kicks-live-chat-connection)): on by
 * default, as chat the moment it is typed is what a streamer expects, with the signed webhooks still the record; a
 * saved `false` is the streamer's choice and stays. And the channel's ids, which Kick's public API does not give:
 * looked up once, or entered once by the streamer. Shared so the panel checks the entry with the same limits main
 * does.
 */
import { z } from 'zod';

/** The largest id accepted; Kick's are far below it. */
export const LIVE_ID_MAX = 999_999_999_999;

export interface LiveSocketSettings {
  /** The switch; it connects only while a Kick account is signed in. */
  enabled: boolean;
  channelId: number | null;
  chatroomId: number | null;
  /** The signed-in user the ids were found for; null for ids the streamer entered and no account has used yet. */
  idsFor: number | null;
}

export const DEFAULT_LIVE_SOCKET: LiveSocketSettings = {
  enabled: true,
  channelId: null,
  chatroomId: null,
  idsFor: null,
};

const liveId = z
  .int(`must be a whole number from 1 to ${LIVE_ID_MAX.toLocaleString('en-US')}`)
  .min(1, `must be a whole number from 1 to ${LIVE_ID_MAX.toLocaleString('en-US')}`)
  .max(LIVE_ID_MAX, `must be a whole number from 1 to ${LIVE_ID_MAX.toLocaleString('en-US')}`);

export const liveSocketSettingsSchema = z.object({
  enabled: z.boolean(),
  channelId: liveId.nullable(),
  chatroomId: liveId.nullable(),
  idsFor: z.int().min(1).nullable(),
});

/**
 * What `settings:update` takes: the switch, and the two ids entered together (both, or both null to forget them).
 */
export const liveSocketSaveSchema = z
  .strictObject({ enabled: z.boolean(), channelId: liveId.nullable(), chatroomId: liveId.nullable() })
  .partial()
  .superRefine((value, ctx) => {
    if ((value.channelId === undefined) !== (value.chatroomId === undefined)) {
      const missing = value.channelId === undefined ? 'channelId' : 'chatroomId';
      ctx.addIssue({ code: 'custom', path: [missing], message: 'give the channel id and the chatroom id together' });
    }
  });
