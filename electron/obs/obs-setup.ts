/**
 * "Set up OBS for Kick" (docs/obs.md#set-up-obs-for-kick): Kick's server URL and stream key into OBS's
 * stream settings (a custom RTMP service), confirmed by reading them back here in main, then the chosen
 * overlays as browser sources in the chosen scene, skipping those already there and pointing those at an
 * old address (a regenerated overlay key) at the current one.
 *
 * The stream key never leaves main: it is not in the result, not in a log line and not in an error's
 * message, even when OBS's own comment would echo it (docs/overlays.md#the-stream-key). Where OBS has no
 * browser source (Debian's build has none), nothing is added and the result lists each overlay's URL to
 * add by hand.
 */
import { AppError, isAppError } from '../../shared/errors';
import type { ObsSetupResult } from '../../shared/obs';
import { OVERLAY_NAMES } from '../../shared/overlay-names';
import { plural } from '../../shared/plural';
import { OVERLAY_KINDS, type OverlayKind } from '../../shared/overlays';
import type { StreamKeyView } from '../../shared/views';
import { type ObsLink, ObsLinkError, ObsRequestError } from './obs-link';

/** What set-up needs of OBS: requests on the current session. */
export type ObsCaller = Pick<ObsLink, 'call'>;

export interface ObsSetupDeps {
  /** The connected session, or an `ObsNotConnected` error. */
  obs: () => ObsCaller;
  /** Kick's stream key and server URL (`MissingScope` without `streamkey:read`). */
  streamKey: () => Promise<StreamKeyView>;
  /** Each overlay's URL with its key; null while the panel server does not run. */
  overlayUrls: () => Record<OverlayKind, string | null>;
  log: (line: string) => void;
}

export interface ObsSetupInput {
  sceneName: string;
  overlays: string[];
}

/** OBS's input kind for a browser source; missing from Debian's build (docs/obs.md#obs-wire-facts). */
export const BROWSER_SOURCE_KIND = 'browser_source';
/** OBS's stream service for a server URL and key of one's own. */
export const CUSTOM_RTMP_SERVICE = 'rtmp_custom';
/** The size every overlay is added at: OBS's usual 1080p canvas, so the page lays itself out. */
export const OVERLAY_SOURCE_SIZE = { width: 1920, height: 1080 } as const;

/** The OBS input name of an overlay: Greenroom's, so it is recognised in OBS's source list. */
export function overlayInputName(kind: OverlayKind): string {
  return `Greenroom ${OVERLAY_NAMES[kind]}`;
}

function isOverlayKind(value: string): value is OverlayKind {
  return (OVERLAY_KINDS as readonly string[]).includes(value);
}

/** Replaces every copy of `secret` in `text`, so nothing built from OBS's or Kick's words can carry the key. */
function scrub(text: string, secret: string): string {
  return secret.length === 0 ? text : text.split(secret).join('•••');
}

/** OBS's failure as the panel's error, in OBS's words (its code and comment), the key taken out. */
function obsError(error: unknown, key: string): unknown {
  if (error instanceof ObsRequestError) {
    return new AppError('ObsRequestFailed', `OBS: ${scrub(error.message, key)}`, {
      details: { obsCode: error.code, request: error.requestType },
    });
  }
  if (error instanceof ObsLinkError) {
    return new AppError('ObsNotConnected', `OBS: ${scrub(error.message, key)}`);
  }
  if (isAppError(error)) {
    // The connection's own error keeps OBS's refusal as its cause: said here the same way, the key out.
    if (error.cause instanceof ObsRequestError) {
      return obsError(error.cause, key);
    }
    return new AppError(error.code, scrub(error.message, key), { details: error.details });
  }
  const message = error instanceof Error ? error.message : String(error);
  return new AppError('Internal', scrub(message, key));
}

function sameStreamSettings(
  read: { streamServiceType: string; streamServiceSettings: Record<string, unknown> },
  want: StreamKeyView,
): boolean {
  const settings = read.streamServiceSettings;
  return read.streamServiceType === CUSTOM_RTMP_SERVICE && settings.server === want.url && settings.key === want.key;
}

/** The chosen overlays, in the Overlays tab's order, each once; an unknown kind is refused by name. */
function chosenOverlays(overlays: string[]): OverlayKind[] {
  const unknown = overlays.filter((kind) => !isOverlayKind(kind));
  if (unknown.length > 0) {
    throw new AppError(
      'Validation',
      `overlays: ${unknown.join(', ')} is not an overlay (${OVERLAY_KINDS.join(', ')})`,
      {
        details: { field: 'overlays' },
      },
    );
  }
  return OVERLAY_KINDS.filter((kind) => overlays.includes(kind));
}

/** Writes Kick's server and key into OBS unless already so, and confirms by reading them back. */
async function writeStreamSettings(obs: ObsCaller, kick: StreamKeyView): Promise<ObsSetupResult['streamSettings']> {
  if (sameStreamSettings(await obs.call('GetStreamServiceSettings'), kick)) {
    return 'already-set';
  }
  await obs.call('SetStreamServiceSettings', {
    streamServiceType: CUSTOM_RTMP_SERVICE,
    streamServiceSettings: { server: kick.url, key: kick.key },
  });
  if (!sameStreamSettings(await obs.call('GetStreamServiceSettings'), kick)) {
    throw new AppError(
      'ObsRequestFailed',
      'OBS: the stream settings read back are not the ones written (Settings → Stream may be locked while streaming)',
    );
  }
  return 'written';
}

/** OBS's browser sources (every scene's) with the address each holds, and the names in the chosen scene. */
async function whatIsThere(
  obs: ObsCaller,
  sceneName: string,
): Promise<{ browserUrls: Map<string, string>; inScene: Set<string> }> {
  const { sceneItems } = await obs.call('GetSceneItemList', { sceneName });
  const inScene = new Set(sceneItems.map((item) => item.sourceName));
  const browserUrls = new Map<string, string>();
  const { inputs } = await obs.call('GetInputList', { inputKind: BROWSER_SOURCE_KIND });
  for (const { inputName } of inputs) {
    const { inputSettings } = await obs.call('GetInputSettings', { inputName });
    browserUrls.set(inputName, typeof inputSettings.url === 'string' ? inputSettings.url : '');
  }
  return { browserUrls, inScene };
}

/** The page an overlay address opens (origin and path), without its key; null for what is not a URL. */
function overlayPage(url: string): string | null {
  try {
    const parsed = new URL(url);
    return `${parsed.origin}${parsed.pathname}`;
  } catch {
    return null;
  }
}

/**
 * Whether a browser source is this overlay at an address that is no longer its own: named by Greenroom
 * (`Greenroom Alert box`, or with the number a taken name got) or opening the same overlay page on the
 * panel server, with another address, such as the key before "New overlay URLs"
 * (docs/obs.md#set-up-obs-for-kick). The panel server refuses the old key, so the source shows nothing.
 */
function isStale(inputName: string, held: string, kind: OverlayKind, url: string): boolean {
  if (held === url) {
    return false;
  }
  const base = overlayInputName(kind);
  const named =
    inputName === base || (inputName.startsWith(`${base} `) && /^\d+$/.test(inputName.slice(base.length + 1)));
  const page = overlayPage(url);
  return named || (page !== null && overlayPage(held) === page);
}

/** A free source name: OBS's names are global, so one taken elsewhere (an input, a scene) gets a number. */
function freeName(base: string, taken: Set<string>): string {
  let name = base;
  for (let n = 2; taken.has(name); n++) {
    name = `${base} ${n}`;
  }
  return name;
}

async function addOverlays(
  obs: ObsCaller,
  sceneName: string,
  overlays: { kind: OverlayKind; url: string }[],
): Promise<Pick<ObsSetupResult, 'added' | 'skipped' | 'updated'>> {
  const { browserUrls, inScene } = await whatIsThere(obs, sceneName);
  // OBS's source names are one namespace: inputs and scenes alike.
  const taken = new Set([
    ...(await obs.call('GetInputList', {})).inputs.map((input) => input.inputName),
    ...(await obs.call('GetSceneList')).scenes.map((scene) => scene.sceneName),
  ]);
  const added: string[] = [];
  const skipped: string[] = [];
  const updated: string[] = [];
  for (const { kind, url } of overlays) {
    const stale = [...browserUrls].filter(([name, held]) => isStale(name, held, kind, url)).map(([name]) => name);
    for (const inputName of stale) {
      // Only the address changes: the size and anything the streamer set in OBS stay.
      await obs.call('SetInputSettings', { inputName, inputSettings: { url } });
      browserUrls.set(inputName, url);
    }
    const inSceneNow = [...browserUrls].some(([name, held]) => held === url && inScene.has(name));
    if (stale.length > 0) {
      updated.push(OVERLAY_NAMES[kind]);
    }
    if (inSceneNow) {
      if (stale.length === 0) {
        skipped.push(OVERLAY_NAMES[kind]);
      }
      continue;
    }
    const inputName = freeName(overlayInputName(kind), taken);
    await obs.call('CreateInput', {
      sceneName,
      inputName,
      inputKind: BROWSER_SOURCE_KIND,
      inputSettings: { url, ...OVERLAY_SOURCE_SIZE },
      sceneItemEnabled: true,
    });
    taken.add(inputName);
    browserUrls.set(inputName, url);
    added.push(OVERLAY_NAMES[kind]);
  }
  return { added, skipped, updated };
}

/** The chosen overlays with their URLs; none while the panel server that serves them is not running. */
function overlayUrls(deps: ObsSetupDeps, kinds: OverlayKind[]): { kind: OverlayKind; url: string }[] {
  const urls = deps.overlayUrls();
  return kinds.map((kind) => {
    const url = urls[kind];
    if (url === null) {
      throw new AppError('Internal', 'overlays: the panel server is not running, so the overlays have no address yet');
    }
    return { kind, url };
  });
}

/** "Set up OBS for Kick": the stream settings, then the overlays (docs/obs.md#set-up-obs-for-kick). */
export async function setUpObsForKick(deps: ObsSetupDeps, input: ObsSetupInput): Promise<ObsSetupResult> {
  const overlays = overlayUrls(deps, chosenOverlays(input.overlays));
  const obs = deps.obs();
  const kick = await deps.streamKey();
  try {
    const streamSettings = await writeStreamSettings(obs, kick);
    deps.log(
      `obs: stream settings ${streamSettings === 'written' ? 'written' : 'already set'} (custom server ${kick.url}; the key is not logged)`,
    );
    if (overlays.length === 0) {
      return { streamSettings, added: [], skipped: [], updated: [], addByHand: [] };
    }
    const { inputKinds } = await obs.call('GetInputKindList', { unversioned: true });
    if (!inputKinds.includes(BROWSER_SOURCE_KIND)) {
      deps.log(`obs: this OBS has no browser source; ${plural(overlays.length, 'overlay')} to add by hand`);
      const addByHand = overlays.map(({ kind, url }) => ({ name: OVERLAY_NAMES[kind], url }));
      return { streamSettings, added: [], skipped: [], updated: [], addByHand };
    }
    const { added, skipped, updated } = await addOverlays(obs, input.sceneName, overlays);
    deps.log(
      `obs: added ${plural(added.length, 'overlay')} to "${input.sceneName}", ${updated.length} pointed at a new address, ${skipped.length} already there`,
    );
    return { streamSettings, added, skipped, updated, addByHand: [] };
  } catch (error) {
    const shown = obsError(error, kick.key);
    deps.log(`obs: set-up for Kick failed: ${shown instanceof Error ? shown.message : String(shown)}`);
    throw shown;
  }
}
