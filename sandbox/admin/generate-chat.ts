/**
 * Viewer chat: storing a message as kick.com would (so the moderation API can delete it and replies can
 * quote it) and generating realistic lines, some with inline emote tokens, some replying to earlier ones.
 */
import { LIMITS, countCodePoints } from '../../shared/limits';
import { createUuid } from '../../electron/core/ids';
import { chatMessagePayload } from '../events/payloads';
import type { SandboxChatMessage, SandboxState } from '../state';
import { chooseUser, type GenerateContext, TriggerInputError } from './generate-context';
import { readOverride } from './overrides';
import { chance, intBetween, pick, type Rng } from './random';
import { CHAT_LINES, EMOTES, emoteToken, REPLY_LINES } from './vocabulary';

/** A message a viewer types into kick.com's chat box. */
export interface ViewerMessageInput {
  broadcasterUserId: number;
  senderUserId: number;
  content: string;
  replyToMessageId?: string | null;
}

/**
 * Checks a viewer message the way kick.com's chat box would (content length, reply target in the same
 * channel, sender not banned) and stores it. Field names in errors are the admin API's.
 */
export function storeViewerMessage(state: SandboxState, input: ViewerMessageInput): SandboxChatMessage {
  const length = countCodePoints(input.content);
  if (length === 0) {
    throw new TriggerInputError('content: must not be empty');
  }
  if (length > LIMITS.chatContentMax) {
    throw new TriggerInputError(`content: must be at most ${LIMITS.chatContentMax} characters`);
  }
  if (state.activeBan(input.broadcasterUserId, input.senderUserId)) {
    throw new TriggerInputError(`user_id: user ${input.senderUserId} is banned in this channel`, 403);
  }
  const replyTo = input.replyToMessageId ?? null;
  if (replyTo !== null) {
    const parent = state.chatMessages.get(replyTo);
    if (!parent || parent.broadcasterUserId !== input.broadcasterUserId) {
      throw new TriggerInputError(`reply_to: no message ${replyTo} in this channel`);
    }
  }
  const message: SandboxChatMessage = {
    messageId: createUuid(),
    broadcasterUserId: input.broadcasterUserId,
    senderUserId: input.senderUserId,
    content: input.content,
    type: 'viewer',
    replyToMessageId: replyTo,
    createdAtMs: state.now(),
    deleted: false,
  };
  state.chatMessages.set(message.messageId, message);
  return message;
}

/** The channel's most recent messages that are still visible, newest last. */
export function recentMessages(state: SandboxState, broadcasterUserId: number, limit: number): SandboxChatMessage[] {
  return state.chatMessages.latest(limit, (m) => m.broadcasterUserId === broadcasterUserId && !m.deleted);
}

/** A line of viewer chat, sometimes with one or two emotes where Kick would put them. */
export function generateChatLine(rng: Rng, base: readonly string[] = CHAT_LINES): string {
  let line: string = pick(rng, base);
  if (chance(rng, 0.35)) {
    const emotes = Array.from({ length: intBetween(rng, 1, 2) }, () => emoteToken(pick(rng, EMOTES)));
    line = chance(rng, 0.5) ? `${line} ${emotes.join(' ')}` : `${emotes.join(' ')} ${line}`;
  }
  return line;
}

/**
 * `chat.message.sent` from a random active viewer. Overrides steer the stored message: `content`,
 * `sender.user_id`/`sender.username` and `replies_to.message_id` (which must exist in the channel).
 */
export function generateChatMessage(g: GenerateContext, lines?: readonly string[]): void {
  const override = readOverride(g.overrides, 'replies_to.message_id');
  let replyTo: string | null = typeof override === 'string' ? override : null;
  let content = generateChatLine(g.rng, lines);
  if (replyTo === null && chance(g.rng, 0.15)) {
    const earlier = recentMessages(g.state, g.broadcasterUserId, 20);
    if (earlier.length > 0) {
      replyTo = pick(g.rng, earlier).messageId;
      content = generateChatLine(g.rng, REPLY_LINES);
    }
  }
  const contentOverride = readOverride(g.overrides, 'content');
  if (typeof contentOverride === 'string') {
    content = contentOverride;
  }
  const message = storeViewerMessage(g.state, {
    broadcasterUserId: g.broadcasterUserId,
    senderUserId: chooseUser(g, 'sender'),
    content,
    replyToMessageId: replyTo,
  });
  g.emit('chat.message.sent', chatMessagePayload(g.state, message));
}
