/**
 * The alert queue's chat commands (docs/overlays.md#from-chat): a moderator or the streamer types
 * `!skipalert`, `!pausealerts`, `!resumealerts` or `!clearalerts`, and the queue acts as if the panel's
 * button were pressed. Who may is read from the badges on Kick's signed chat webhook, as the chat bot's
 * command permissions are. Pure.
 */
import type { ChatMessageView } from '../../shared/views';
import { levelOf } from '../chat-bot/chat-bot';

export type AlertChatCommand = 'skip' | 'pause' | 'resume' | 'clear';

const COMMANDS: ReadonlyMap<string, AlertChatCommand> = new Map([
  ['!skipalert', 'skip'],
  ['!pausealerts', 'pause'],
  ['!resumealerts', 'resume'],
  ['!clearalerts', 'clear'],
]);

/** The commands as typed, for the panel's hint and the docs. */
export const ALERT_CHAT_COMMAND_NAMES: readonly string[] = [...COMMANDS.keys()];

/** The command a chat message gives the alert queue, or null (not one, or not from a moderator or the streamer). */
export function alertCommandOf(message: Pick<ChatMessageView, 'content' | 'sender'>): AlertChatCommand | null {
  const word = message.content.trim().split(/\s/, 1)[0]!.toLowerCase();
  const command = COMMANDS.get(word);
  if (command === undefined) {
    return null;
  }
  const level = levelOf(message);
  return level === 'moderator' || level === 'broadcaster' ? command : null;
}
