/**
 * Greenroom's non-secret settings, kept in a 0600 `conf` file (electron-store's engine) in the data dir.
 * The client secret never comes here: it goes to the SecretStore (`SECRET_KEYS.clientSecret`).
 *
 * The file carries a `version`; {@link MIGRATIONS} upgrade older files one step at a time, then every field
 * is validated on its own, so one bad value falls back to its default (and is logged) without costing the
 * streamer the rest of their settings.
 *
 * The file is written only when something changed: a start with nothing new leaves it alone, so Greenroom
 * starts on a full disk or a read-only data dir (issue 9, "Start-up faults"). Opening the file, and what
 * happens to a damaged one, is `settings-file.ts`.
 */
import { isDeepStrictEqual } from 'node:util';
import { z } from 'zod';
import { AppError } from '../../shared/errors';
import type { InvokeArgs } from '../../shared/ipc-contract';
import { type AutomodSettings, automodSettingsSchema, DEFAULT_AUTOMOD_SETTINGS } from '../../shared/automod';
import { type ChatBotSettings, chatBotSettingsSchema, DEFAULT_CHAT_BOT_SETTINGS } from '../../shared/chat-bot';
import { type ChatToolsSettings, chatToolsSettingsSchema, modNotesSchema } from '../../shared/chat-tools';
import { DEFAULT_OVERLAY_SETTINGS, type OverlaySettings, overlaySettingsSchema } from '../../shared/overlays';
import { KICK_EVENT_TYPES, KICK_SCOPES, type KickEventType, type KickScope } from '../../shared/kick/scopes';
import { createInstallSubdomain, isValidSubdomain } from '../webhooks/tunnel/subdomain';
import { DEFAULT_WEBHOOK_PORT } from './config';
import { type SettingsFile, type SettingsOptions, openSettingsFile } from './settings-file';
import { type Migration, MIGRATIONS } from './settings-migrations';

export { openSettingsFile, SETTINGS_FILE_NAME, type SettingsFile, type SettingsOptions } from './settings-file';
import { Listeners } from '../../shared/listeners';
import { fsReason } from '../secrets/damaged-file';

/** The redirect URI streamers register by default ([seed §5](../../docs/product-spec.md#5-authentication) rule 3). */
export const DEFAULT_REDIRECT_URI = 'http://127.0.0.1:3000/callback';
/** Where Kick serves emote images (`/emotes/<id>/fullsize`). */
export const DEFAULT_EMOTE_HOST = 'https://files.kick.com';
/** Messages kept in chat unless the streamer changes it (100–10,000). */
export const DEFAULT_CHAT_SCROLLBACK = 1000;
/** Rewards this app created, remembered so they are shown as editable; Kick allows 15 per channel. */
const MANAGED_REWARDS_MAX = 200;

/** Which desktop notifications the streamer wants. */
export interface NotificationToggles {
  follows: boolean;
  subs: boolean;
  kicks: boolean;
  redemptions: boolean;
}

/** The settings as the app uses them (current version, every field valid). */
export interface SettingsValues {
  clientId: string;
  redirectUri: string;
  /** `localtunnel`, `off`, or a public https URL routed to the receiver. */
  tunnel: string;
  wantedEvents: KickEventType[];
  scopes: KickScope[];
  notifications: NotificationToggles;
  chatScrollback: number;
  emoteHost: string;
  /** This install's localtunnel subdomain, made once and kept (the webhook URL must not change). */
  installSubdomain: string | null;
  managedRewardIds: string[];
  /**
   * The local port of the webhook receiver; fixed so a streamer's own tunnel or reverse proxy can route to
   * it (`GREENROOM_WEBHOOK_PORT` overrides it; 0 picks a free port on every start).
   */
  webhookPort: number;
  /** The streamer finished or closed the setup guide; until then it opens by itself (first run). */
  setupGuideDone: boolean;
  /** The OBS overlays' look, alerts, chat box, goal and event list (shared/overlays.ts). */
  overlays: OverlaySettings;
  /** Never show the stream key; keep the window out of screen captures where the system allows it. */
  streamerMode: boolean;
  /** Auto-moderation's rules (shared/automod.ts); off until the streamer turns it on. */
  automod: AutomodSettings;
  /** Commands, timers and event replies (shared/chat-bot.ts). */
  chatBot: ChatBotSettings;
  /** Highlight terms, the ignore list, first-message marks and inline event rows (shared/chat-tools.ts). */
  chatTools: ChatToolsSettings;
  /** Private mod notes by user id; not in the panel's settings view (the user card shows them). */
  modNotes: Record<string, string>;
}

/** A panel settings update, as the contract validated it. */
export type SettingsPatch = InvokeArgs<'settings:update'>[0];

// --- Schema ---

const LOOPBACK_HOSTS = ['127.0.0.1', 'localhost', '[::1]'];

const redirectUri = z.string().refine((value) => {
  const url = URL.canParse(value) ? new URL(value) : null;
  return url !== null && url.protocol === 'http:' && LOOPBACK_HOSTS.includes(url.hostname) && url.pathname !== '/';
}, 'must be an http URL on 127.0.0.1, localhost or [::1] with a path, e.g. http://127.0.0.1:3000/callback');

const tunnel = z
  .string()
  .refine(
    (value) => value === 'localtunnel' || value === 'off' || /^https:\/\/[^\s/]+/.test(value),
    'must be "localtunnel", "off" or an https URL',
  );

const httpsOrigin = z.string().refine((value) => {
  const url = URL.canParse(value) ? new URL(value) : null;
  return url !== null && (url.protocol === 'https:' || url.protocol === 'http:') && url.pathname === '/';
}, 'must be an http(s) origin such as https://files.kick.com');

/** One schema per field, each with its default: a bad field falls back alone. */
const FIELDS = {
  clientId: z.string().max(100).default(''),
  redirectUri: redirectUri.default(DEFAULT_REDIRECT_URI),
  tunnel: tunnel.default('localtunnel'),
  wantedEvents: z.array(z.enum(KICK_EVENT_TYPES)).default([...KICK_EVENT_TYPES]),
  scopes: z.array(z.enum(KICK_SCOPES)).default([...KICK_SCOPES]),
  notifications: z
    .object({
      follows: z.boolean().default(true),
      subs: z.boolean().default(true),
      kicks: z.boolean().default(true),
      redemptions: z.boolean().default(true),
    })
    .default({ follows: true, subs: true, kicks: true, redemptions: true }),
  chatScrollback: z.int().min(100).max(10_000).default(DEFAULT_CHAT_SCROLLBACK),
  emoteHost: httpsOrigin.default(DEFAULT_EMOTE_HOST),
  installSubdomain: z
    .string()
    .refine(isValidSubdomain, 'must be 4–63 lowercase letters or digits')
    .nullable()
    .default(null),
  managedRewardIds: z.array(z.string().min(1).max(64)).max(MANAGED_REWARDS_MAX).default([]),
  webhookPort: z.int().min(0).max(65_535).default(DEFAULT_WEBHOOK_PORT),
  setupGuideDone: z.boolean().default(false),
  overlays: overlaySettingsSchema.default(() => structuredClone(DEFAULT_OVERLAY_SETTINGS)),
  streamerMode: z.boolean().default(false),
  automod: automodSettingsSchema.default(() => structuredClone(DEFAULT_AUTOMOD_SETTINGS)),
  chatBot: chatBotSettingsSchema.default(() => structuredClone(DEFAULT_CHAT_BOT_SETTINGS)),
  chatTools: chatToolsSettingsSchema.prefault({}),
  modNotes: modNotesSchema.default({}),
} satisfies { [K in keyof SettingsValues]: z.ZodType<SettingsValues[K]> };

/**
 * Brings any stored document to `migrations.length` and validates it field by field. A document from a
 * newer Greenroom is read as far as this one understands it (unknown fields are kept on write).
 */
export function readSettingsDocument(
  raw: unknown,
  log: (line: string) => void,
  migrations: readonly Migration[] = MIGRATIONS,
): { values: SettingsValues; version: number; extra: Record<string, unknown> } {
  let doc: Record<string, unknown> = isRecord(raw) ? { ...raw } : {};
  const stored = doc.version;
  let version = typeof stored === 'number' && Number.isInteger(stored) && stored >= 0 ? stored : 0;
  if (version > migrations.length) {
    log(
      `settings: the file is version ${version}, newer than this Greenroom (${migrations.length}); reading what it can`,
    );
  }
  while (version < migrations.length) {
    doc = migrations[version]!(doc);
    version++;
  }
  const values = {} as Record<string, unknown>;
  for (const [key, schema] of Object.entries(FIELDS)) {
    const parsed = (schema as z.ZodType).safeParse(doc[key]);
    if (parsed.success) {
      values[key] = parsed.data;
    } else {
      log(`settings: ${key} was invalid (${parsed.error.issues[0]?.message ?? 'bad value'}); using the default`);
      values[key] = (schema as z.ZodType).parse(undefined);
    }
  }
  const extra = Object.fromEntries(Object.entries(doc).filter(([key]) => !(key in FIELDS) && key !== 'version'));
  return { values: values as unknown as SettingsValues, version: Math.max(version, migrations.length), extra };
}

// --- The store ---

/** Reads and writes the settings; every change is validated, written at once and announced. */
export class SettingsStore {
  readonly #file: SettingsFile;
  readonly #listeners = new Listeners<[SettingsValues]>();
  #values: SettingsValues;
  #version: number;
  #extra: Record<string, unknown>;

  constructor(file: SettingsFile, options: SettingsOptions & { randomBytes: (n: number) => Uint8Array }) {
    this.#file = file;
    const log = options.log ?? (() => undefined);
    const raw = file.read();
    const { values, version, extra } = readSettingsDocument(raw, log);
    this.#values = values;
    this.#version = version;
    this.#extra = extra;
    this.#values.installSubdomain ??= createInstallSubdomain(options.randomBytes);
    const doc = this.#document(this.#values);
    // A JSON round trip gives both sides plain prototypes, so only the content is compared.
    if (isDeepStrictEqual(JSON.parse(JSON.stringify(raw ?? {})) as unknown, doc)) {
      return;
    }
    try {
      file.write(doc);
    } catch (error) {
      (options.notice ?? log)(
        `Greenroom: could not save the settings to ${file.path} (${fsReason(error)}); Greenroom starts with them, ` +
          'but changes made now are kept only until it closes.',
      );
    }
  }

  values(): SettingsValues {
    return structuredClone(this.#values);
  }

  /** Applies a panel update; a bad value is an InvalidArgument naming the field, and nothing is written. */
  update(patch: SettingsPatch): SettingsValues {
    const next: SettingsValues = { ...this.#values };
    for (const [key, value] of Object.entries(patch)) {
      if (value === undefined) {
        continue;
      }
      const merged = key === 'notifications' ? { ...this.#values.notifications, ...(value as object) } : value;
      (next as unknown as Record<string, unknown>)[key] = checkField(key as keyof SettingsValues, merged);
    }
    return this.#commit(next);
  }

  setClientId(clientId: string): SettingsValues {
    return this.#commit({ ...this.#values, clientId: checkField('clientId', clientId.trim()) });
  }

  /** Remembers a reward this app created (Kick lets only its creator edit it). */
  addManagedReward(id: string): void {
    const ids = [...this.#values.managedRewardIds.filter((r) => r !== id), id].slice(-MANAGED_REWARDS_MAX);
    this.#commit({ ...this.#values, managedRewardIds: ids });
  }

  removeManagedReward(id: string): void {
    if (this.#values.managedRewardIds.includes(id)) {
      this.#commit({ ...this.#values, managedRewardIds: this.#values.managedRewardIds.filter((r) => r !== id) });
    }
  }

  /** A private note on a chatter; '' removes it. A note beyond the limits is refused naming them. */
  setModNote(userId: number, note: string): void {
    const { [String(userId)]: _old, ...rest } = this.#values.modNotes;
    const modNotes = note === '' ? rest : checkField('modNotes', { ...rest, [String(userId)]: note });
    this.#commit({ ...this.#values, modNotes });
  }

  onChange(listener: (values: SettingsValues) => void): () => void {
    return this.#listeners.add(listener);
  }

  /** Writes first: a change the disk refused is not applied, so what runs is what the file says. */
  #commit(next: SettingsValues): SettingsValues {
    try {
      this.#file.write(this.#document(next));
    } catch (error) {
      throw new AppError(
        'Internal',
        `Greenroom could not save the settings to ${this.#file.path} (${fsReason(error)}); nothing was changed`,
        { cause: error },
      );
    }
    this.#values = next;
    const snapshot = this.values();
    this.#listeners.emit(snapshot);
    return snapshot;
  }

  #document(values: SettingsValues): Record<string, unknown> {
    return { ...this.#extra, ...values, version: this.#version };
  }
}

/** Opens the settings in the data dir. */
export function openSettings(
  dir: string,
  options: SettingsOptions & { randomBytes: (n: number) => Uint8Array },
): SettingsStore {
  return new SettingsStore(openSettingsFile(dir, options), options);
}

function checkField<K extends keyof SettingsValues>(key: K, value: unknown): SettingsValues[K] {
  const schema = FIELDS[key] as z.ZodType | undefined;
  if (!schema) {
    throw new AppError('InvalidArgument', `${key}: not a setting`, { details: { field: key } });
  }
  const parsed = schema.safeParse(value);
  if (!parsed.success) {
    throw new AppError('InvalidArgument', `${key}: ${parsed.error.issues[0]?.message ?? 'invalid'}`, {
      details: { field: key },
    });
  }
  return parsed.data as SettingsValues[K];
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
