/**
 * The contract's channel names as plain lists, for the code that only routes messages and must stay small:
 * the preload checks every message against these before it reaches ipcRenderer, and bundling the schemas
 * (zod) into it made the preload 460 KB for a few string comparisons. `ipc-contract.ts` keys its
 * schemas and event payloads by exactly these names; the compiler refuses a schema without a name here, or
 * a name without a schema.
 */

export const INVOKE_CHANNELS = [
  'app:snapshot',
  'app:restart',
  'auth:start-login',
  'auth:cancel-login',
  'auth:sign-out',
  'chat:history',
  'chat:send',
  'chat:delete',
  'mod:timeout',
  'mod:ban',
  'mod:unban',
  'mod:log',
  'mod:user-card',
  'feed:history',
  'redemptions:list',
  'redemptions:accept',
  'redemptions:reject',
  'rewards:list',
  'rewards:create',
  'rewards:update',
  'rewards:delete',
  'ads:status',
  'ads:enroll',
  'ads:run',
  'stream:info',
  'stream:update',
  'stream:search-categories',
  'kicks:leaderboard',
  'health:snapshot',
  'settings:get',
  'settings:update',
  'settings:set-credentials',
  'stream:key',
  'overlays:info',
  'overlays:regenerate-key',
  'overlays:test-alert',
  'overlays:add-media',
  'alerts:status',
  'alerts:pause',
  'alerts:skip',
  'alerts:clear',
  'alerts:replay',
  'alerts:dismiss-too-old',
  'automod:test',
  'mod:set-note',
  'mod:undo-auto',
  'sandbox:reset',
  'obs:status',
  'obs:save-connection',
  'obs:set-scene',
  'obs:set-source-visible',
  'obs:output',
  'obs:setup-for-kick',
  'chat:room-state',
  'history:status',
  'history:streams',
  'history:recap',
  'history:viewer',
  'history:search',
  'history:export-recap',
  'history:export-viewer',
  'diagnostics:save',
] as const;

export const SEND_CHANNELS = ['app:open-external', 'window:pop-out-chat', 'window:toggle-companion'] as const;

export const EVENT_CHANNELS = [
  'kick:event',
  'chat:deleted',
  'chat:shown',
  'chat:replaced',
  'mod:action',
  'session:changed',
  'health:changed',
  'settings:changed',
  'app:restarted',
  'stream:changed',
  'alerts:changed',
  'views:changed',
  'obs:changed',
  'chat:room-changed',
  'history:changed',
] as const;

export type InvokeChannel = (typeof INVOKE_CHANNELS)[number];
export type SendChannel = (typeof SEND_CHANNELS)[number];
export type EventChannel = (typeof EVENT_CHANNELS)[number];

const INVOKE_SET: ReadonlySet<string> = new Set(INVOKE_CHANNELS);
const SEND_SET: ReadonlySet<string> = new Set(SEND_CHANNELS);
const EVENT_SET: ReadonlySet<string> = new Set(EVENT_CHANNELS);

export function isInvokeChannel(value: unknown): value is InvokeChannel {
  return typeof value === 'string' && INVOKE_SET.has(value);
}

export function isSendChannel(value: unknown): value is SendChannel {
  return typeof value === 'string' && SEND_SET.has(value);
}

export function isEventChannel(value: unknown): value is EventChannel {
  return typeof value === 'string' && EVENT_SET.has(value);
}

/** All IPC channel names carry this prefix on the Electron side, so main can ignore anything else. */
export const IPC_PREFIX = 'greenroom:';

/** The IPC channel names: the contract's channels travel inside these three. */
export const IPC_CHANNELS = {
  invoke: `${IPC_PREFIX}invoke`,
  send: `${IPC_PREFIX}send`,
  event: `${IPC_PREFIX}event`,
} as const;
