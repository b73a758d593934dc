/**
 * The port between Greenroom and one OBS: open a websocket session, send requests, hear events. The real
 * one is `obs-websocket-link.ts` (obs-websocket-js over obs-websocket 5); tests use the fake in
 * `test/helpers/fake-obs.ts`, and one contract suite runs against both, the real one against Debian's OBS
 * (docs/obs.md#testing-against-a-real-obs). Everything above this port (the connection's states, the
 * monitor, the actions, "Set up OBS for Kick") is plain logic with an injected clock and scheduler.
 *
 * Only the requests Greenroom uses are typed here, each with the fields it reads; the real link validates
 * every response against `obs-wire.ts` before it returns it, so a field OBS renamed fails loudly at the
 * edge rather than as a wrong number in the panel.
 */

/** Why a session could not be opened or ended (the connection's states follow from these). */
export type ObsLinkFailure =
  /** OBS refused the password (websocket close code 4009), or wants one and none was given. */
  | 'wrong-password'
  /** Nothing answered, the handshake failed, or OBS went away. */
  | 'unreachable';

export class ObsLinkError extends Error {
  readonly failure: ObsLinkFailure;
  readonly closeCode: number | null;

  constructor(failure: ObsLinkFailure, message: string, closeCode: number | null = null, cause?: unknown) {
    super(message, { cause });
    this.name = 'ObsLinkError';
    this.failure = failure;
    this.closeCode = closeCode;
  }
}

/** OBS refused or failed one request (obs-websocket's `requestStatus`): code and OBS's comment. */
export class ObsRequestError extends Error {
  readonly requestType: string;
  readonly code: number;

  constructor(requestType: string, code: number, comment: string) {
    super(`${requestType} failed (${code})${comment ? `: ${comment}` : ''}`);
    this.name = 'ObsRequestError';
    this.requestType = requestType;
    this.code = code;
  }
}

export interface ObsIdentity {
  obsVersion: string;
  websocketVersion: string;
  rpcVersion: number;
}

/** The requests Greenroom sends, with the fields it passes and the fields it reads back. */
export interface ObsRequests {
  GetVersion: { in: undefined; out: { obsVersion: string; obsWebSocketVersion: string; rpcVersion: number } };
  GetStats: {
    in: undefined;
    out: {
      cpuUsage: number;
      memoryUsage: number;
      availableDiskSpace: number;
      activeFps: number;
      renderSkippedFrames: number;
      renderTotalFrames: number;
      outputSkippedFrames: number;
      outputTotalFrames: number;
    };
  };
  GetStreamStatus: {
    in: undefined;
    out: {
      outputActive: boolean;
      outputReconnecting: boolean;
      outputDuration: number;
      outputBytes: number;
      outputSkippedFrames: number;
      outputTotalFrames: number;
    };
  };
  GetRecordStatus: {
    in: undefined;
    out: { outputActive: boolean; outputPaused: boolean; outputDuration: number; outputBytes: number };
  };
  StartStream: { in: undefined; out: undefined };
  StopStream: { in: undefined; out: undefined };
  StartRecord: { in: undefined; out: undefined };
  StopRecord: { in: undefined; out: { outputPath?: string } | undefined };
  GetSceneList: {
    in: undefined;
    out: { currentProgramSceneName: string | null; scenes: { sceneName: string; sceneIndex: number }[] };
  };
  GetCurrentProgramScene: { in: undefined; out: { currentProgramSceneName: string } };
  SetCurrentProgramScene: { in: { sceneName: string }; out: undefined };
  CreateScene: { in: { sceneName: string }; out: undefined };
  GetSceneItemList: {
    in: { sceneName: string };
    out: {
      sceneItems: { sceneItemId: number; sourceName: string; sceneItemEnabled: boolean; inputKind?: string | null }[];
    };
  };
  GetSceneItemId: { in: { sceneName: string; sourceName: string }; out: { sceneItemId: number } };
  GetSceneItemEnabled: { in: { sceneName: string; sceneItemId: number }; out: { sceneItemEnabled: boolean } };
  SetSceneItemEnabled: { in: { sceneName: string; sceneItemId: number; sceneItemEnabled: boolean }; out: undefined };
  GetInputKindList: { in: { unversioned?: boolean }; out: { inputKinds: string[] } };
  GetInputList: { in: { inputKind?: string }; out: { inputs: { inputName: string; inputKind: string }[] } };
  GetInputSettings: { in: { inputName: string }; out: { inputSettings: Record<string, unknown>; inputKind: string } };
  SetInputSettings: {
    in: { inputName: string; inputSettings: Record<string, unknown>; overlay?: boolean };
    out: undefined;
  };
  CreateInput: {
    in: {
      sceneName: string;
      inputName: string;
      inputKind: string;
      inputSettings?: Record<string, unknown>;
      sceneItemEnabled?: boolean;
    };
    out: { sceneItemId: number };
  };
  RemoveInput: { in: { inputName: string }; out: undefined };
  GetStreamServiceSettings: {
    in: undefined;
    out: { streamServiceType: string; streamServiceSettings: Record<string, unknown> };
  };
  SetStreamServiceSettings: {
    in: { streamServiceType: string; streamServiceSettings: Record<string, unknown> };
    out: undefined;
  };
  GetSourceScreenshot: {
    in: { sourceName: string; imageFormat: string; imageWidth?: number; imageHeight?: number };
    out: { imageData: string };
  };
}
export type ObsRequestType = keyof ObsRequests;

/** The events Greenroom listens to, with the fields it reads. */
export interface ObsEvents {
  CurrentProgramSceneChanged: { sceneName: string };
  SceneListChanged: { scenes: unknown[] };
  SceneItemEnableStateChanged: { sceneName: string; sceneItemId: number; sceneItemEnabled: boolean };
  SceneItemCreated: { sceneName: string; sourceName: string; sceneItemId: number };
  SceneItemRemoved: { sceneName: string; sourceName: string; sceneItemId: number };
  StreamStateChanged: { outputActive: boolean; outputState: string };
  RecordStateChanged: { outputActive: boolean; outputState: string };
  ExitStarted: undefined;
}
export type ObsEventType = keyof ObsEvents;

/** One session with one OBS. A link is used for one session: connect, use, close; a new one for the next. */
export interface ObsLink {
  /**
   * Opens the websocket and identifies (with the password when OBS asks for one). Rejects with an
   * {@link ObsLinkError}: `wrong-password` or `unreachable`.
   */
  connect(options: { url: string; password: string | null }): Promise<ObsIdentity>;
  /** One request; rejects with an {@link ObsRequestError} when OBS refuses it, an {@link ObsLinkError} when closed. */
  call<T extends ObsRequestType>(
    type: T,
    ...data: ObsRequests[T]['in'] extends undefined ? [] : [ObsRequests[T]['in']]
  ): Promise<ObsRequests[T]['out']>;
  on<E extends ObsEventType>(type: E, listener: (data: ObsEvents[E]) => void): () => void;
  /** The session ended without `close()` being called (OBS quit, crashed, or the network dropped). */
  onClosed(listener: (error: ObsLinkError) => void): () => void;
  close(): Promise<void>;
}

/** Makes a fresh link for each session (the connection manager reconnects with a new one). */
export type ObsLinkFactory = () => ObsLink;
