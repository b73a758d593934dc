/**
 * What OBS answers, checked at the edge: one zod schema per request in `ObsRequests`, holding the fields
 * Greenroom reads and letting every other field through (obs-websocket adds fields between versions, and
 * Debian's 5.1 sends more than Greenroom reads). A response that does not match fails loudly here, as an
 * `ObsRequestError`, rather than as a wrong number in the panel (docs/obs.md#obs-wire-facts).
 */
import { z } from 'zod';
import type { ObsEvents, ObsEventType, ObsRequests, ObsRequestType } from './obs-link';

const count = z.number().nonnegative();
/** A request answered with no data: obs-websocket leaves `responseData` out. */
const none = z.unknown().transform(() => undefined);

const output = {
  outputActive: z.boolean(),
  outputDuration: count,
  outputBytes: count,
};

type Schemas = { [T in ObsRequestType]: z.ZodType<ObsRequests[T]['out'], unknown> };

export const OBS_RESPONSE_SCHEMAS: Schemas = {
  GetVersion: z.looseObject({ obsVersion: z.string(), obsWebSocketVersion: z.string(), rpcVersion: z.int() }),
  GetStats: z.looseObject({
    cpuUsage: count,
    memoryUsage: count,
    availableDiskSpace: z.number(),
    activeFps: count,
    renderSkippedFrames: count,
    renderTotalFrames: count,
    outputSkippedFrames: count,
    outputTotalFrames: count,
  }),
  GetStreamStatus: z.looseObject({
    ...output,
    outputReconnecting: z.boolean(),
    outputSkippedFrames: count,
    outputTotalFrames: count,
  }),
  GetRecordStatus: z.looseObject({ ...output, outputPaused: z.boolean() }),
  StartStream: none,
  StopStream: none,
  StartRecord: none,
  StopRecord: z.looseObject({ outputPath: z.string().optional() }).optional(),
  GetSceneList: z.looseObject({
    currentProgramSceneName: z.string().nullable(),
    scenes: z.array(z.looseObject({ sceneName: z.string(), sceneIndex: z.int() })),
  }),
  GetCurrentProgramScene: z.looseObject({ currentProgramSceneName: z.string() }),
  SetCurrentProgramScene: none,
  CreateScene: none,
  GetSceneItemList: z.looseObject({
    sceneItems: z.array(
      z.looseObject({
        sceneItemId: z.int(),
        sourceName: z.string(),
        sceneItemEnabled: z.boolean(),
        inputKind: z.string().nullable().optional(),
      }),
    ),
  }),
  GetSceneItemId: z.looseObject({ sceneItemId: z.int() }),
  GetSceneItemEnabled: z.looseObject({ sceneItemEnabled: z.boolean() }),
  SetSceneItemEnabled: none,
  GetInputKindList: z.looseObject({ inputKinds: z.array(z.string()) }),
  GetInputList: z.looseObject({ inputs: z.array(z.looseObject({ inputName: z.string(), inputKind: z.string() })) }),
  GetInputSettings: z.looseObject({ inputSettings: z.record(z.string(), z.unknown()), inputKind: z.string() }),
  SetInputSettings: none,
  CreateInput: z.looseObject({ sceneItemId: z.int() }),
  RemoveInput: none,
  GetStreamServiceSettings: z.looseObject({
    streamServiceType: z.string(),
    streamServiceSettings: z.record(z.string(), z.unknown()),
  }),
  SetStreamServiceSettings: none,
  GetSourceScreenshot: z.looseObject({ imageData: z.string() }),
};

type EventSchemas = { [E in ObsEventType]: z.ZodType<ObsEvents[E], unknown> };

/** The events Greenroom listens to; one that does not match is dropped (and logged by the link). */
export const OBS_EVENT_SCHEMAS: EventSchemas = {
  CurrentProgramSceneChanged: z.looseObject({ sceneName: z.string() }),
  SceneListChanged: z.looseObject({ scenes: z.array(z.unknown()) }),
  SceneItemEnableStateChanged: z.looseObject({
    sceneName: z.string(),
    sceneItemId: z.int(),
    sceneItemEnabled: z.boolean(),
  }),
  SceneItemCreated: z.looseObject({ sceneName: z.string(), sourceName: z.string(), sceneItemId: z.int() }),
  SceneItemRemoved: z.looseObject({ sceneName: z.string(), sourceName: z.string(), sceneItemId: z.int() }),
  StreamStateChanged: z.looseObject({ outputActive: z.boolean(), outputState: z.string() }),
  RecordStateChanged: z.looseObject({ outputActive: z.boolean(), outputState: z.string() }),
  ExitStarted: none,
};

/** Longest text of OBS's own (a refusal's comment, a version) Greenroom keeps (docs/obs.md#obs-wire-facts). */
export const OBS_TEXT_MAX = 200;

/**
 * `text` cut to `max` characters, never between the two halves of a surrogate pair. OBS sets no limit on
 * names, comments or versions, and a hostile or broken server can send megabytes: they are cut before they
 * reach state, errors, logs or the panel (docs/obs.md#obs-wire-facts).
 */
export function cutText(text: string, max: number, mark = ''): string {
  if (text.length <= max) {
    return text;
  }
  let end = max - mark.length;
  const last = text.charCodeAt(end - 1);
  if (last >= 0xd800 && last <= 0xdbff) {
    end -= 1;
  }
  return text.slice(0, end) + mark;
}

/** The first problem zod found, as `field: message`, for the error that names the request. */
export function firstIssue(error: z.ZodError): string {
  const issue = error.issues[0];
  if (!issue) {
    return 'unexpected shape';
  }
  const path = issue.path.length > 0 ? issue.path.join('.') : '(response)';
  return cutText(`${path}: ${issue.message}`, OBS_TEXT_MAX, '…');
}
