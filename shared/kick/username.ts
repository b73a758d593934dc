/**
 * What Greenroom takes for a Kick username: 1 to 25 ASCII letters, digits or underscores; a channel's slug, the
 * name with `_` as `-`, is at most 25 characters ([reference](../../docs/kick-wire-reference.md#103-events)).
 * The settings' chatter lists (`shared/chat-tools.ts`) accept the same names.
 */
export const KICK_USERNAME_MAX = 25;

const KICK_USERNAME = new RegExp(`^[A-Za-z0-9_]{1,${KICK_USERNAME_MAX}}$`);

/** Whether `name` can be a Kick account's name as it stands (no `@`, no spaces). */
export function isKickUsername(name: string): boolean {
  return KICK_USERNAME.test(name);
}
