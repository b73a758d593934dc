/**
 * The channel id and chatroom id the socket's channels are named by ([reference §10.5](../../docs/kick-wire-reference.md#105-channel-and-chatroom-ids)).
 * Kick's public API gives neither; its website's channel endpoint does where Cloudflare lets a program through.
 * Asked once per channel and kept in the settings (they never change); otherwise the streamer enters them once
 * ([Settings](../../docs/settings.md#kicks-live-chat-connection)).
 */
import { z } from 'zod';
import { LIVE_ID_MAX } from '../../shared/live-socket-settings';
import type { Result } from '../../shared/errors';
import { fetchJson, type WebFetch } from './web-fetch';

export interface ChannelIds {
  channelId: number;
  chatroomId: number;
}

const id = z.number().int().min(1).max(LIVE_ID_MAX);
const channelAnswer = z.looseObject({ id, chatroom: z.looseObject({ id }) });

/** Kick's channel endpoint for `slug`; the slug with `_` as `-` too, as Kick's own links write it. */
export async function lookUpChannelIds(
  fetch: WebFetch,
  siteUrl: string,
  slug: string,
): Promise<Result<ChannelIds, string>> {
  const slugs = [...new Set([slug, slug.replace(/_/g, '-')])];
  let reason = 'no answer';
  for (const each of slugs) {
    const answer = await fetchJson(fetch, `${siteUrl}/api/v2/channels/${encodeURIComponent(each)}`, { method: 'GET' });
    if (!answer.ok) {
      reason = answer.error;
      continue;
    }
    const parsed = channelAnswer.safeParse(answer.value.body);
    if (parsed.success) {
      return { ok: true, value: { channelId: parsed.data.id, chatroomId: parsed.data.chatroom.id } };
    }
    reason = 'the answer has no id and chatroom.id';
  }
  return { ok: false, error: reason };
}

/** The five public channels of one channel ([reference §10.2](../../docs/kick-wire-reference.md#102-channels)). */
export function liveChannels(ids: ChannelIds): string[] {
  return [
    `chatrooms.${ids.chatroomId}.v2`,
    `chatrooms.${ids.chatroomId}`,
    `chatroom_${ids.chatroomId}`,
    `channel.${ids.channelId}`,
    `channel_${ids.channelId}`,
  ];
}
