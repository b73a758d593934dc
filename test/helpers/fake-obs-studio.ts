/**
 * The OBS behind the fake link (./fake-obs.ts): scenes, inputs, scene items, outputs, stream settings and
 * counters, answering each request in `ObsRequests` as Debian's OBS 29 (obs-websocket 5.1) does — the same
 * status codes, the same order of lists, the same events. The contract suite
 * (test/integration/obs/obs-link-contract.ts) runs against this and the real OBS, so where they differ the
 * suite fails; the facts are in docs/obs.md#obs-wire-facts.
 */
import { ObsRequestError, type ObsEvents, type ObsEventType } from '../../electron/obs/obs-link';

/** obs-websocket's request status codes used here (docs/obs.md#obs-wire-facts). */
export const OBS_STATUS = {
  UnknownRequestType: 204,
  MissingRequestField: 300,
  OutputRunning: 500,
  OutputNotRunning: 501,
  ResourceNotFound: 600,
  ResourceAlreadyExists: 601,
  InvalidInputKind: 605,
} as const;

/** Debian's OBS 29 input kinds: no `browser_source` (no CEF). */
export const DEBIAN_INPUT_KINDS = [
  'image_source',
  'color_source_v3',
  'slideshow',
  'xshm_input',
  'pulse_input_capture',
  'pulse_output_capture',
  'v4l2_input',
  'ffmpeg_source',
  'text_ft2_source_v2',
];

/** A 1×1 PNG: what GetSourceScreenshot returns here, as OBS does, as a data URL. */
const PIXEL_PNG =
  'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR4nGNgYGD4DwABBAEAwS2OUAAAAABJRU5ErkJggg==';

interface SceneItem {
  sceneItemId: number;
  sourceName: string;
  enabled: boolean;
}
interface Scene {
  name: string;
  items: SceneItem[];
  idCounter: number;
}
interface Output {
  active: boolean;
  durationMs: number;
  bytes: number;
}

/** Counters a test drives (`FakeObs.stats`, `FakeObs.tick`), in OBS's units: percent, MB, frames. */
export interface FakeObsStats {
  cpuUsage: number;
  memoryUsage: number;
  /** MB free where OBS records. */
  availableDiskSpace: number;
  activeFps: number;
  renderSkippedFrames: number;
  renderTotalFrames: number;
  outputSkippedFrames: number;
  outputTotalFrames: number;
}

type Emit = <E extends ObsEventType>(type: E, data: ObsEvents[E]) => void;
type Data = Record<string, unknown>;

function fail(type: string, code: number, comment: string): never {
  throw new ObsRequestError(type, code, comment);
}

export class FakeObsStudio {
  scenes: Scene[] = [{ name: 'Scene', items: [], idCounter: 0 }];
  program = 'Scene';
  inputs = new Map<string, { kind: string; settings: Data }>();
  inputKinds: string[];
  streamService: { streamServiceType: string; streamServiceSettings: Data } = {
    streamServiceType: 'rtmp_common',
    streamServiceSettings: {},
  };
  stream: Output & { reconnecting: boolean; skipped: number; total: number } = {
    active: false,
    durationMs: 0,
    bytes: 0,
    reconnecting: false,
    skipped: 0,
    total: 0,
  };
  record: Output & { paused: boolean } = { active: false, durationMs: 0, bytes: 0, paused: false };
  /** False: StartStream goes STARTING → STOPPED, as OBS does when nothing answers at the server. */
  ingestReachable = true;
  stats: FakeObsStats = {
    cpuUsage: 0.4,
    memoryUsage: 200,
    availableDiskSpace: 80_000,
    activeFps: 30,
    renderSkippedFrames: 0,
    renderTotalFrames: 0,
    outputSkippedFrames: 0,
    outputTotalFrames: 0,
  };
  private recordings = 0;

  constructor(
    inputKinds: string[],
    private readonly emit: Emit,
  ) {
    this.inputKinds = [...inputKinds];
  }

  private scene(type: string, name: unknown): Scene {
    return (
      this.scenes.find((s) => s.name === name) ??
      fail(type, 600, `No source was found by the name of \`${String(name)}\`.`)
    );
  }

  private item(type: string, data: Data): { scene: Scene; item: SceneItem } {
    const scene = this.scene(type, field(type, data, 'sceneName'));
    const id = field(type, data, 'sceneItemId');
    const item =
      scene.items.find((i) => i.sceneItemId === id) ??
      fail(type, 600, `No scene items were found in scene \`${scene.name}\` with the ID \`${String(id)}\`.`);
    return { scene, item };
  }

  private sourceExists(name: string): boolean {
    return this.inputs.has(name) || this.scenes.some((s) => s.name === name);
  }

  /** OBS lists scenes bottom first: sceneIndex 0 is the last scene in its Scenes dock. */
  private sceneList(): { sceneName: string; sceneIndex: number }[] {
    return [...this.scenes].reverse().map((s, sceneIndex) => ({ sceneName: s.name, sceneIndex }));
  }

  private startOutput(kind: 'stream' | 'record'): void {
    const output = this[kind];
    if (output.active) {
      fail(kind === 'stream' ? 'StartStream' : 'StartRecord', 500, '');
    }
    const event = kind === 'stream' ? 'StreamStateChanged' : 'RecordStateChanged';
    queueMicrotask(() => {
      this.emit(event, { outputActive: false, outputState: 'OBS_WEBSOCKET_OUTPUT_STARTING' });
      if (kind === 'stream' && !this.ingestReachable) {
        this.emit(event, { outputActive: false, outputState: 'OBS_WEBSOCKET_OUTPUT_STOPPED' });
        return;
      }
      Object.assign(output, { active: true, durationMs: 0, bytes: 0 });
      if (kind === 'stream') {
        Object.assign(this.stream, { skipped: 0, total: 0 });
      }
      this.emit(event, { outputActive: true, outputState: 'OBS_WEBSOCKET_OUTPUT_STARTED' });
    });
  }

  /** Stops an output as OBS does: STOPPING then STOPPED, both with outputActive false. */
  stopOutput(kind: 'stream' | 'record'): string | undefined {
    const output = this[kind];
    if (!output.active) {
      fail(kind === 'stream' ? 'StopStream' : 'StopRecord', 501, '');
    }
    const event = kind === 'stream' ? 'StreamStateChanged' : 'RecordStateChanged';
    output.active = false;
    queueMicrotask(() => {
      this.emit(event, { outputActive: false, outputState: 'OBS_WEBSOCKET_OUTPUT_STOPPING' });
      output.durationMs = 0;
      this.emit(event, { outputActive: false, outputState: 'OBS_WEBSOCKET_OUTPUT_STOPPED' });
    });
    return kind === 'record' ? `/fake-obs/recordings/${++this.recordings}.mkv` : undefined;
  }

  /** One request, answered as OBS answers it; throws ObsRequestError with OBS's code when OBS refuses it. */
  handle(type: string, data: Data): unknown {
    switch (type) {
      case 'GetVersion':
        return {
          obsVersion: '29.0.2',
          obsWebSocketVersion: '5.1.0',
          rpcVersion: 1,
          availableRequests: [],
          supportedImageFormats: ['png', 'jpg'],
          platform: 'ubuntu',
          platformDescription: 'Debian GNU/Linux',
        };
      case 'GetStats':
        return {
          ...this.stats,
          averageFrameRenderTime: 0,
          webSocketSessionIncomingMessages: 0,
          webSocketSessionOutgoingMessages: 0,
        };
      case 'GetStreamStatus':
        return {
          outputActive: this.stream.active,
          outputReconnecting: this.stream.reconnecting,
          outputDuration: this.stream.active ? this.stream.durationMs : 0,
          outputBytes: this.stream.bytes,
          outputSkippedFrames: this.stream.skipped,
          outputTotalFrames: this.stream.total,
          outputCongestion: 0,
          outputTimecode: timecode(this.stream.active ? this.stream.durationMs : 0),
        };
      case 'GetRecordStatus':
        return {
          outputActive: this.record.active,
          outputPaused: this.record.paused,
          outputDuration: this.record.active ? this.record.durationMs : 0,
          outputBytes: this.record.bytes,
          outputTimecode: timecode(this.record.active ? this.record.durationMs : 0),
        };
      case 'StartStream':
        return this.startOutput('stream');
      case 'StopStream':
        return void this.stopOutput('stream');
      case 'StartRecord':
        return this.startOutput('record');
      case 'StopRecord':
        return { outputPath: this.stopOutput('record') };
      case 'GetSceneList':
        return { currentProgramSceneName: this.program, currentPreviewSceneName: null, scenes: this.sceneList() };
      case 'GetCurrentProgramScene':
        return { currentProgramSceneName: this.program };
      case 'SetCurrentProgramScene': {
        const scene = this.scene(type, field(type, data, 'sceneName'));
        if (scene.name !== this.program) {
          this.program = scene.name;
          queueMicrotask(() => this.emit('CurrentProgramSceneChanged', { sceneName: scene.name }));
        }
        return undefined;
      }
      case 'CreateScene': {
        const sceneName = String(field(type, data, 'sceneName'));
        if (this.sourceExists(sceneName)) {
          fail(type, 601, 'A source already exists by that scene name.');
        }
        this.scenes.push({ name: sceneName, items: [], idCounter: 0 });
        queueMicrotask(() => this.emit('SceneListChanged', { scenes: this.sceneList() }));
        return undefined;
      }
      case 'GetSceneItemList':
        return {
          sceneItems: this.scene(type, field(type, data, 'sceneName')).items.map((item, sceneItemIndex) => ({
            sceneItemId: item.sceneItemId,
            sceneItemIndex,
            sourceName: item.sourceName,
            sceneItemEnabled: item.enabled,
            inputKind: this.inputs.get(item.sourceName)?.kind ?? null,
            isGroup: null,
            sourceType: 'OBS_SOURCE_TYPE_INPUT',
          })),
        };
      case 'GetSceneItemId': {
        const scene = this.scene(type, field(type, data, 'sceneName'));
        const sourceName = field(type, data, 'sourceName');
        const item =
          scene.items.find((i) => i.sourceName === sourceName) ??
          fail(type, 600, 'No scene items were found in the specified scene by that name or offset.');
        return { sceneItemId: item.sceneItemId };
      }
      case 'GetSceneItemEnabled':
        return { sceneItemEnabled: this.item(type, data).item.enabled };
      case 'SetSceneItemEnabled': {
        const { scene, item } = this.item(type, data);
        const enabled = field(type, data, 'sceneItemEnabled') === true;
        if (item.enabled !== enabled) {
          item.enabled = enabled;
          const event = { sceneName: scene.name, sceneItemId: item.sceneItemId, sceneItemEnabled: enabled };
          queueMicrotask(() => this.emit('SceneItemEnableStateChanged', event));
        }
        return undefined;
      }
      case 'GetInputKindList':
        return {
          inputKinds:
            data.unversioned === true ? this.inputKinds.map((k) => k.replace(/_v\d+$/, '')) : [...this.inputKinds],
        };
      case 'GetInputList':
        return {
          inputs: [...this.inputs]
            .reverse()
            .filter(([, input]) => data.inputKind === undefined || input.kind === data.inputKind)
            .map(([inputName, input]) => ({
              inputName,
              inputKind: input.kind,
              unversionedInputKind: input.kind.replace(/_v\d+$/, ''),
            })),
        };
      case 'GetInputSettings': {
        const name = String(field(type, data, 'inputName'));
        const input = this.inputs.get(name) ?? fail(type, 600, `No source was found by the name of \`${name}\`.`);
        return { inputKind: input.kind, inputSettings: structuredClone(input.settings) };
      }
      case 'SetInputSettings': {
        const name = String(field(type, data, 'inputName'));
        const input = this.inputs.get(name) ?? fail(type, 600, `No source was found by the name of \`${name}\`.`);
        const settings = structuredClone(field(type, data, 'inputSettings') as Data);
        // OBS applies the new settings over the old ones unless `overlay` is false.
        input.settings = data.overlay === false ? settings : { ...input.settings, ...settings };
        return undefined;
      }
      case 'CreateInput':
        return this.createInput(data);
      case 'RemoveInput': {
        // OBS 29 answers this but keeps the input and its scene items (docs/obs.md#obs-wire-facts): so does the fake.
        const name = String(field(type, data, 'inputName'));
        if (!this.inputs.has(name)) {
          fail(type, 600, `No source was found by the name of \`${name}\`.`);
        }
        return undefined;
      }
      case 'GetStreamServiceSettings':
        return structuredClone(this.streamService);
      case 'SetStreamServiceSettings': {
        const streamServiceType = String(field(type, data, 'streamServiceType'));
        const settings = field(type, data, 'streamServiceSettings') as Data;
        // Same service type: OBS applies the new settings over the old ones; another type starts afresh.
        this.streamService = {
          streamServiceType,
          streamServiceSettings:
            streamServiceType === this.streamService.streamServiceType
              ? { ...this.streamService.streamServiceSettings, ...settings }
              : { ...settings },
        };
        return undefined;
      }
      case 'GetSourceScreenshot': {
        const name = String(field(type, data, 'sourceName'));
        if (!this.sourceExists(name)) {
          fail(type, 600, `No source was found by the name of \`${name}\`.`);
        }
        return { imageData: PIXEL_PNG };
      }
      default:
        return fail(type, 204, 'Your request type is not valid.');
    }
  }

  private createInput(data: Data): { sceneItemId: number } {
    const type = 'CreateInput';
    const scene = this.scene(type, field(type, data, 'sceneName'));
    const inputName = String(field(type, data, 'inputName'));
    const inputKind = String(field(type, data, 'inputKind'));
    if (this.sourceExists(inputName)) {
      fail(type, 601, 'A source already exists by that input name.');
    }
    if (!this.inputKinds.includes(inputKind)) {
      fail(
        type,
        605,
        'Your specified input kind is not supported by OBS. Check that your specified kind is properly versioned and that any necessary plugins are loaded.',
      );
    }
    this.inputs.set(inputName, { kind: inputKind, settings: structuredClone((data.inputSettings as Data) ?? {}) });
    const item = { sceneItemId: ++scene.idCounter, sourceName: inputName, enabled: data.sceneItemEnabled !== false };
    scene.items.push(item);
    this.emit('SceneItemCreated', { sceneName: scene.name, sourceName: inputName, sceneItemId: item.sceneItemId });
    if (!item.enabled) {
      this.emit('SceneItemEnableStateChanged', {
        sceneName: scene.name,
        sceneItemId: item.sceneItemId,
        sceneItemEnabled: false,
      });
    }
    return { sceneItemId: item.sceneItemId };
  }
}

function field(type: string, data: Data, name: string): unknown {
  return data[name] ?? fail(type, 300, `Your request is missing the \`${name}\` field.`);
}

function timecode(ms: number): string {
  const pad = (n: number, width = 2) => String(Math.floor(n)).padStart(width, '0');
  return `${pad(ms / 3_600_000)}:${pad((ms / 60_000) % 60)}:${pad((ms / 1000) % 60)}.${pad(ms % 1000, 3)}`;
}
