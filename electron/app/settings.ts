/**
 * Greenroom's non-secret settings, kept in a 0600 `conf` file (electron-store's engine) in the data dir.
 * The client secret never comes here: it goes to the SecretStore (`SECRET_KEYS.clientSecret`).
 *
 * The file carries a `version`; {@link MIGRATIONS} upgrade older files one step at a time, then every field
 * is validated on its own, and inside a field every list entry on its own (settings-salvage.ts): one bad
 * value falls back to its default and one bad entry (a blocked term of an unknown kind) is dropped alone,
 * without costing the streamer the rest of their settings. What was left out is named in one line for the
 * streamer, and the file as it was is kept beside it before it is written without it
 * ([design notes](../../docs/design-notes.md#files-in-the-data-folder)).
 *
 * The file is written only when something changed: a start with nothing new leaves it alone, so Greenroom
 * starts on a full disk or a read-only data dir. Opening the file, and what
 * happens to a damaged one, is `settings-file.ts`.
 */
import { isDeepStrictEqual } from 'node:util';
import type { z } from 'zod';
import { AppError } from '../../shared/errors';
import { fieldDetails, fieldPath } from '../../shared/field-refusal';
import type { InvokeArgs } from '../../shared/ipc-contract';
import { createInstallSubdomain } from '../webhooks/tunnel/subdomain';
import { type SettingsFile, type SettingsDeps, openSettingsFile } from './settings-file';
import { detailOf, describeLeftOut } from './settings-labels';
import { type Migration, MIGRATIONS } from './settings-migrations';
import { type LeftOut, salvage, valueAt } from './settings-salvage';
import { deepFreeze, FIELDS, MANAGED_REWARDS_MAX, type SettingsValues } from './settings-schema';

/** A panel settings update, as the contract validated it. */
export type SettingsPatch = InvokeArgs<'settings:update'>[0];

export {
  DEFAULT_CHAT_SCROLLBACK,
  DEFAULT_EMOTE_HOST,
  DEFAULT_REDIRECT_URI,
  type NotificationToggles,
  type SettingsValues,
} from './settings-schema';

export { openSettingsFile, SETTINGS_FILE_NAME, type SettingsFile, type SettingsDeps } from './settings-file';
import { Listeners } from '../../shared/listeners';
import { fsReason } from '../secrets/damaged-file';

/** A part of the stored settings that was left out on reading: its field, and what and why. */
export interface LeftOutSetting {
  field: keyof SettingsValues;
  left: LeftOut;
}

/** How many left-out parts the line names; the rest are counted, and all are in the details. */
const NAMED_IN_LINE = 3;

/**
 * Brings any stored document to `migrations.length` and validates it field by field, salvaging what it can
 * of a field with a bad part. A document from a newer Greenroom is read as far as this one understands it
 * (unknown fields are kept on write).
 */
export function readSettingsDocument(
  raw: unknown,
  log: (line: string) => void,
  migrations: readonly Migration[] = MIGRATIONS,
): { values: SettingsValues; version: number; extra: Record<string, unknown>; leftOut: LeftOutSetting[] } {
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
  const leftOut: LeftOutSetting[] = [];
  for (const [key, schema] of Object.entries(FIELDS) as [keyof SettingsValues, z.ZodType][]) {
    const result = salvage(schema, doc[key]);
    if (result.ok) {
      values[key] = result.value.data;
      leftOut.push(...result.value.leftOut.map((left) => ({ field: key, left })));
    } else {
      log(`settings: ${key} was invalid (${result.error.message}); using the default`);
      values[key] = schema.parse(undefined);
      const left = { path: [], value: doc[key], issue: result.error, bad: valueAt(doc[key], result.error.path) };
      leftOut.push({ field: key, left: { ...left, how: 'reset' } });
    }
  }
  leftOut.forEach(({ field, left }) => log(`settings: left out ${detailOf(field, left)}`));
  const extra = Object.fromEntries(Object.entries(doc).filter(([key]) => !(key in FIELDS) && key !== 'version'));
  return {
    values: values as unknown as SettingsValues,
    version: Math.max(version, migrations.length),
    extra,
    leftOut,
  };
}

/** The streamer's line about what was left out, and the details (every field path). */
function leftOutNotice(leftOut: LeftOutSetting[], after: string): { line: string; details: string } {
  const named = leftOut.slice(0, NAMED_IN_LINE).map(({ field, left }) => describeLeftOut(field, left));
  const more = leftOut.length > NAMED_IN_LINE ? `; and ${leftOut.length - NAMED_IN_LINE} more` : '';
  return {
    line: `Greenroom: some saved settings could not be read and were left out: ${named.join('; ')}${more}. ${after}`,
    details: leftOut.map(({ field, left }) => detailOf(field, left)).join('; '),
  };
}

// --- The store ---

/** Reads and writes the settings; every change is validated, written at once and announced. */
export class SettingsStore {
  readonly #file: SettingsFile;
  readonly #listeners = new Listeners<[SettingsValues]>();
  #values: SettingsValues;
  #snapshot: SettingsValues | null = null;
  #version: number;
  #extra: Record<string, unknown>;
  /** Part of the file was left out on reading: the file as it was is kept aside before the first write. */
  #keepOriginal: boolean;

  constructor(file: SettingsFile, options: SettingsDeps & { randomBytes: (n: number) => Uint8Array }) {
    this.#file = file;
    const log = options.log ?? (() => undefined);
    const notice = options.notice ?? log;
    const raw = file.read();
    const { values, version, extra, leftOut } = readSettingsDocument(raw, log);
    this.#values = values;
    this.#version = version;
    this.#extra = extra;
    this.#keepOriginal = leftOut.length > 0;
    this.#values.installSubdomain ??= createInstallSubdomain(options.randomBytes);
    const doc = this.#document(this.#values);
    // A JSON round trip gives both sides plain prototypes, so only the content is compared.
    if (isDeepStrictEqual(JSON.parse(JSON.stringify(raw ?? {})) as unknown, doc)) {
      return;
    }
    let kept: string | null;
    try {
      kept = this.#write(doc);
    } catch (error) {
      const unsaved =
        `could not save the settings to ${file.path} (${fsReason(error)}); Greenroom starts with them, ` +
        'but changes made now are kept only until it closes.';
      if (leftOut.length === 0) {
        notice(`Greenroom: ${unsaved}`);
      } else {
        const { line, details } = leftOutNotice(leftOut, `The file was left as it was: Greenroom ${unsaved}`);
        notice(line, details);
      }
      return;
    }
    if (leftOut.length > 0) {
      const { line, details } = leftOutNotice(
        leftOut,
        kept ? `The settings file as it was is kept as ${kept}.` : 'The other settings are kept.',
      );
      notice(line, details);
    }
  }

  /**
   * The settings as they stand: one frozen copy per change, shared by every reader. The chat bot, auto-moderation
   * and the overlays read them per chat message, and a fresh deep copy each time was a tenth of the app's CPU
   * in a raid; frozen, a reader cannot change them behind the store's back either.
   */
  values(): SettingsValues {
    return (this.#snapshot ??= deepFreeze(structuredClone(this.#values)));
  }

  /** Applies a panel update; a bad value is an InvalidArgument naming the field, and nothing is written. */
  update(patch: SettingsPatch): SettingsValues {
    const next: SettingsValues = { ...this.#values };
    for (const [key, value] of Object.entries(patch)) {
      if (value === undefined) {
        continue;
      }
      const merged =
        key === 'notifications'
          ? { ...this.#values.notifications, ...(value as object) }
          : key === 'liveSocket'
            ? liveSocketMerged(this.#values.liveSocket, value as NonNullable<SettingsPatch['liveSocket']>)
            : value;
      (next as unknown as Record<string, unknown>)[key] = checkField(key as keyof SettingsValues, merged);
    }
    return this.#commit(next);
  }

  setClientId(clientId: string): SettingsValues {
    return this.#commit({ ...this.#values, clientId: checkField('clientId', clientId.trim()) });
  }

  /** The OBS connection as saved from `obs:save-connection` (the password goes to the SecretStore). */
  setObs(obs: SettingsValues['obs']): SettingsValues {
    return this.#commit({ ...this.#values, obs: checkField('obs', obs) });
  }

  /** Kick's live chat connection's settings as main keeps them (the ids it looked up, and for whom). */
  setLiveSocket(liveSocket: SettingsValues['liveSocket']): SettingsValues {
    return this.#commit({ ...this.#values, liveSocket: checkField('liveSocket', liveSocket) });
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
      this.#write(this.#document(next));
    } catch (error) {
      throw new AppError(
        'Internal',
        `Greenroom could not save the settings to ${this.#file.path} (${fsReason(error)}); nothing was changed`,
        { cause: error },
      );
    }
    this.#values = next;
    this.#snapshot = null;
    const snapshot = this.values();
    this.#listeners.emit(snapshot);
    return snapshot;
  }

  /**
   * Writes the document; the first write after part of the file was left out keeps the file as it was
   * aside first (and fails, writing nothing, when it cannot). Returns where it was kept, if it was now.
   */
  #write(doc: Record<string, unknown>): string | null {
    const kept = this.#keepOriginal && this.#file.keepOriginal ? this.#file.keepOriginal() : null;
    this.#keepOriginal = false;
    this.#file.write(doc);
    return kept;
  }

  #document(values: SettingsValues): Record<string, unknown> {
    return { ...this.#extra, ...values, version: this.#version };
  }
}

/** Opens the settings in the data dir. */
export function openSettings(
  dir: string,
  options: SettingsDeps & { randomBytes: (n: number) => Uint8Array },
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
    // Every refused value by its full path, so the panel marks the row (`chatBot.commands.0.reply`).
    const refusals = parsed.error.issues.map((issue) => ({
      field: fieldPath([key, ...issue.path]),
      reason: issue.message,
    }));
    throw new AppError('InvalidArgument', `${key}: ${parsed.error.issues[0]?.message ?? 'invalid'}`, {
      details: fieldDetails(refusals),
    });
  }
  return parsed.data as SettingsValues[K];
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * A `liveSocket` patch over the saved value: the switch alone keeps the ids; ids the streamer entered belong to
 * no account yet, so the next connection claims them for the signed-in one.
 */
function liveSocketMerged(
  saved: SettingsValues['liveSocket'],
  patch: NonNullable<SettingsPatch['liveSocket']>,
): SettingsValues['liveSocket'] {
  const idsGiven = patch.channelId !== undefined || patch.chatroomId !== undefined;
  return { ...saved, ...patch, ...(idsGiven ? { idsFor: null } : {}) };
}
