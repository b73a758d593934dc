/**
 * "Set up OBS for Kick"'s fixtures: helper A's in-memory OBS (test/helpers/fake-obs.ts, held to Debian's
 * OBS 29 by the contract suite) behind a connected link, the real channel operations reading the key from
 * a Kick client, and a log that keeps every line.
 */
import type { KickChannel } from '../../../../shared/kick/resources';
import type { OverlayKind } from '../../../../shared/overlays';
import { type ObsCaller, setUpObsForKick, type ObsSetupInput } from '../../../../electron/obs/obs-setup';
import { type ChannelClient, ChannelOps } from '../../../../electron/services/channel-ops';
import { FakeObs } from '../../../helpers/fake-obs';

export { FakeObs };
export const KEY = 'sk_us-west-2_SECRETKEY123456';
export const SERVER = 'rtmps://fa723fc1b171.global-contribute.live-video.net:443/app/';
export const OVERLAY = (kind: string) => `http://127.0.0.1:4870/overlay/${kind}?key=ovk_abc`;
export const SCENE = 'Scene';

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

/** Adds an input to a scene of the fake OBS, as the streamer would have in OBS. */
export async function addInput(obs: FakeObs, sceneName: string, inputName: string, url: string): Promise<void> {
  const link = obs.link();
  await link.connect({ url: obs.url, password: obs.password });
  const kind = obs.studio.inputKinds.includes('browser_source') ? 'browser_source' : 'image_source';
  await link.call('CreateInput', { sceneName, inputName, inputKind: kind, inputSettings: { url } });
  await link.close();
}

export interface SetupOptions {
  scopes?: string[];
  obs?: FakeObs;
  /** Wraps the connected session: an OBS that behaves differently for one request. */
  caller?: (link: ObsCaller) => ObsCaller;
  urls?: Record<OverlayKind, string | null>;
}

export async function setup(options: SetupOptions = {}) {
  const obs = options.obs ?? new FakeObs();
  const link = obs.link();
  await link.connect({ url: obs.url, password: obs.password });
  const caller = options.caller ? options.caller(link) : link;
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
    obs: () => caller,
    streamKey: () => ops.streamKey(scopes),
    overlayUrls: () => urls,
    log: (line: string) => logs.push(line),
  };
  const from = obs.requests.length;
  /** Everything that left main or was written down: the result, the log, and any error's message and details. */
  const settle = async (input: ObsSetupInput) => {
    try {
      const result = await setUpObsForKick(deps, input);
      return { result, error: null, seen: JSON.stringify(result) + logs.join('\n') };
    } catch (error) {
      const value = error as { message: string; details?: unknown; code?: string };
      const seen = `${value.message} ${JSON.stringify(value.details ?? {})}` + logs.join('\n');
      return { result: null, error: value, seen };
    }
  };
  /** The request types sent during set-up, in order. */
  const sent = () => obs.requests.slice(from).map((r) => r.type);
  const sceneInputs = (sceneName = SCENE) =>
    obs.studio.scenes.find((s) => s.name === sceneName)?.items.map((i) => i.sourceName);
  return { obs, logs, settle, sent, sceneInputs };
}
