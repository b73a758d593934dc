/**
 * "Set up OBS for Kick"'s fixtures: an OBS that keeps stream settings, scenes and inputs the way OBS 29
 * answers them (codes 600 not found, 601 already exists, 605 kind not available), the real channel
 * operations reading the key from a Kick client, and a log that keeps every line.
 */
import type { KickChannel } from '../../../../shared/kick/resources';
import { type ObsCaller, setUpObsForKick, type ObsSetupInput } from '../../../../electron/obs/obs-setup';
import { ObsRequestError, type ObsRequests, type ObsRequestType } from '../../../../electron/obs/obs-link';
import { type ChannelClient, ChannelOps } from '../../../../electron/services/channel-ops';

export const KEY = 'sk_us-west-2_SECRETKEY123456';
export const SERVER = 'rtmps://fa723fc1b171.global-contribute.live-video.net:443/app/';
export const OVERLAY = (kind: string) => `http://127.0.0.1:4870/overlay/${kind}?key=ovk_abc`;

/** A request's fields, as the fake reads them. */
interface Fields {
  sceneName: string;
  inputName: string;
  inputKind: string;
  inputSettings?: Record<string, unknown>;
}

interface Input {
  kind: string;
  settings: Record<string, unknown>;
}

/** A small OBS: one service setting, inputs by name, scenes as lists of input names. */
export class FakeObs implements ObsCaller {
  service: { streamServiceType: string; streamServiceSettings: Record<string, unknown> } = {
    streamServiceType: 'rtmp_common',
    streamServiceSettings: { service: 'Twitch', server: 'auto' },
  };
  kinds = ['color_source_v3', 'image_source', 'text_ft2_source_v2', 'xshm_input'];
  inputs = new Map<string, Input>();
  scenes = new Map<string, string[]>([['Scene', []]]);
  calls: { type: string; data: unknown }[] = [];
  /** OBS quietly keeps its old stream settings (as a locked profile would). */
  ignoreServiceWrites = false;
  /** A request OBS refuses, with OBS's comment. */
  refuse: { type: string; code: number; comment: string } | null = null;

  withBrowserSource(): this {
    this.kinds.push('browser_source');
    return this;
  }

  add(scene: string, name: string, kind: string, settings: Record<string, unknown> = {}): void {
    this.inputs.set(name, { kind, settings });
    this.scenes.set(scene, [...(this.scenes.get(scene) ?? []), name]);
  }

  call<T extends ObsRequestType>(
    type: T,
    ...data: ObsRequests[T]['in'] extends undefined ? [] : [ObsRequests[T]['in']]
  ): Promise<ObsRequests[T]['out']> {
    this.calls.push({ type, data: data[0] });
    // Answered on a later turn, as a websocket answer is; a refusal rejects.
    return Promise.resolve().then(() => this.#answer(type, data[0] as unknown as Fields) as ObsRequests[T]['out']);
  }

  #answer(type: string, data: Fields): unknown {
    if (this.refuse?.type === type) {
      throw new ObsRequestError(type, this.refuse.code, this.refuse.comment);
    }
    const scene = (name: string) => {
      const items = this.scenes.get(name);
      if (!items) {
        throw new ObsRequestError(type, 600, `No source was found by the name of \`${name}\`.`);
      }
      return items;
    };
    switch (type) {
      case 'GetStreamServiceSettings':
        return structuredClone(this.service);
      case 'SetStreamServiceSettings':
        if (!this.ignoreServiceWrites) {
          this.service = structuredClone(data) as typeof this.service;
        }
        return undefined;
      case 'GetInputKindList':
        return { inputKinds: [...this.kinds] };
      case 'GetInputList':
        return { inputs: [...this.inputs].map(([inputName, input]) => ({ inputName, inputKind: input.kind })) };
      case 'GetSceneItemList':
        return {
          sceneItems: scene(data.sceneName).map((name, i) => ({
            sceneItemId: i + 1,
            sourceName: name,
            sceneItemEnabled: true,
            inputKind: this.inputs.get(name)?.kind ?? null,
          })),
        };
      case 'GetInputSettings': {
        const input = this.inputs.get(data.inputName);
        if (!input) {
          throw new ObsRequestError(type, 600, 'No source was found.');
        }
        return { inputSettings: structuredClone(input.settings), inputKind: input.kind };
      }
      case 'CreateInput': {
        const items = scene(data.sceneName);
        if (!this.kinds.includes(data.inputKind)) {
          throw new ObsRequestError(type, 605, 'Your specified input kind is not supported by OBS.');
        }
        if (this.inputs.has(data.inputName)) {
          throw new ObsRequestError(type, 601, 'A source already exists by that input name.');
        }
        this.add(data.sceneName, data.inputName, data.inputKind, data.inputSettings ?? {});
        return { sceneItemId: items.length };
      }
      default:
        throw new ObsRequestError(type, 204, 'Your request type is not valid.');
    }
  }

  writes(): unknown[] {
    return this.calls.filter((c) => c.type === 'SetStreamServiceSettings' || c.type === 'CreateInput');
  }
}

/** The channel as Kick answers it to the signed-in broadcaster with `streamkey:read`. */
function channel(): KickChannel {
  return {
    broadcaster_user_id: 100001,
    slug: 'sandbox',
    channel_description: '',
    banner_picture: '',
    stream_title: 'Live',
    category: { id: 1, name: 'Just Chatting', thumbnail: '' },
    stream: {
      ...{ url: SERVER, key: KEY, is_live: false, is_mature: false, language: 'en', custom_tags: [] },
      ...{ start_time: '', viewer_count: 0, thumbnail: '' },
    },
    active_subscribers_count: 0,
    canceled_subscribers_count: 0,
  };
}

export function setup(options: { scopes?: string[]; obs?: FakeObs; urls?: Record<string, string | null> } = {}) {
  const obs = options.obs ?? new FakeObs();
  const logs: string[] = [];
  const ops = new ChannelOps({
    client: { fetchChannel: () => Promise.resolve(channel()) } as unknown as ChannelClient,
    managedRewards: { has: () => false, add: () => undefined, remove: () => undefined },
    broadcasterUserId: () => 100001,
    onRedemptionsDecided: () => undefined,
    log: (line) => logs.push(line),
  });
  const scopes = options.scopes ?? ['channel:read', 'streamkey:read'];
  const urls = options.urls ?? {
    alerts: OVERLAY('alerts'),
    chat: OVERLAY('chat'),
    goal: OVERLAY('goal'),
    events: OVERLAY('events'),
  };
  const deps = {
    obs: () => obs,
    streamKey: () => ops.streamKey(scopes),
    overlayUrls: () => urls as Record<'alerts' | 'chat' | 'goal' | 'events', string | null>,
    log: (line: string) => logs.push(line),
  };
  const run = (input: ObsSetupInput) => setUpObsForKick(deps, input);
  /** Everything that left main or was written down: the result, the log, and any error's message and details. */
  const settle = async (input: ObsSetupInput) => {
    try {
      const result = await run(input);
      return { result, error: null, seen: JSON.stringify(result) + logs.join('\n') };
    } catch (error) {
      const value = error as { message: string; details?: unknown; code?: string };
      return {
        result: null,
        error: value,
        seen: `${value.message} ${JSON.stringify(value.details ?? {})}` + logs.join('\n'),
      };
    }
  };
  return { obs, logs, run, settle };
}
