/**
 * The clean OBS configuration the real-OBS harness (../obs-process.ts) writes into a fresh HOME before each
 * run: `global.ini` (websocket server on, no wizard, no updater), one profile and one scene collection with a
 * single scene named "Scene". Every key here is an OBS fact recorded in docs/obs.md#obs-wire-facts.
 *
 * Written in code rather than kept as files so the port, password and recording folder go in without a
 * template language, and so a restart can put the collection back exactly as it was.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** The profile and scene collection names the harness passes to `--profile` and `--collection`. */
export const OBS_PROFILE = 'Greenroom';
export const OBS_COLLECTION = 'Greenroom';
/** The one scene the clean collection holds (tests create others over the websocket). */
export const OBS_FIRST_SCENE = 'Scene';

export interface ObsConfigOptions {
  /** `$HOME` for OBS; its config goes to `$HOME/.config/obs-studio`. */
  home: string;
  port: number;
  /** Null: the websocket server asks for no password. */
  password: string | null;
  /** Where OBS writes recordings. */
  recordingDir: string;
}

function ini(sections: Record<string, Record<string, string | number | boolean>>): string {
  return Object.entries(sections)
    .map(
      ([name, keys]) =>
        `[${name}]\n${Object.entries(keys)
          .map(([k, v]) => `${k}=${String(v)}\n`)
          .join('')}`,
    )
    .join('\n');
}

export function obsConfigDir(home: string): string {
  return join(home, '.config', 'obs-studio');
}

/** Writes `global.ini` and the profile (both kept across a restart: OBS only adds to them). */
export function writeObsGlobalAndProfile(options: ObsConfigOptions): void {
  const dir = obsConfigDir(options.home);
  mkdirSync(join(dir, 'basic', 'profiles', OBS_PROFILE), { recursive: true });
  mkdirSync(options.recordingDir, { recursive: true });
  writeFileSync(
    join(dir, 'global.ini'),
    ini({
      General: {
        // FirstRun=true with a LastVersion set skips the auto-configuration wizard (docs/obs.md#obs-wire-facts).
        FirstRun: true,
        LastVersion: 486539266, // 29.0.2 as OBS packs it: (29 << 24) | (0 << 16) | 2
        EnableAutoUpdates: false,
        WarnBeforeStartingStream: false,
        WarnBeforeStoppingStream: false,
        WarnBeforeStoppingRecord: false,
        ConfirmOnExit: false,
      },
      Basic: { Profile: OBS_PROFILE, ProfileDir: OBS_PROFILE, SceneCollection: OBS_COLLECTION },
      BasicWindow: { SysTrayEnabled: false, SysTrayWhenStarted: false, ShowTransitions: false },
      OBSWebSocket: {
        FirstLoad: false,
        ServerEnabled: true,
        ServerPort: options.port,
        AlertsEnabled: false,
        AuthRequired: options.password !== null,
        ServerPassword: options.password ?? '',
      },
    }),
  );
  writeFileSync(
    join(dir, 'basic', 'profiles', OBS_PROFILE, 'basic.ini'),
    ini({
      General: { Name: OBS_PROFILE },
      Video: {
        BaseCX: 1280,
        BaseCY: 720,
        OutputCX: 1280,
        OutputCY: 720,
        FPSType: 0,
        FPSCommon: 30,
      },
      Audio: { SampleRate: 48000, ChannelSetup: 'Stereo' },
      Output: { Mode: 'Simple' },
      SimpleOutput: {
        FilePath: options.recordingDir,
        RecFormat: 'mkv',
        RecQuality: 'Stream',
        StreamEncoder: 'x264',
        RecEncoder: 'x264',
        Preset: 'veryfast',
        // A keyframe every 2 s (60 frames at 30 fps): a recording that shares the stream's encoder starts
        // at the next keyframe, and x264's own default (250 frames, 8 s) left it empty for seconds
        // ([OBS wire facts](../../../docs/obs.md#obs-wire-facts)). Custom x264 options need UseAdvanced.
        UseAdvanced: true,
        x264Settings: 'keyint=60',
        VBitrate: 2500,
        ABitrate: 160,
      },
    }),
  );
}

/** Writes the scene collection: one empty scene, "Scene", as program (OBS rewrites it while it runs). */
export function writeObsCollection(home: string): void {
  const dir = join(obsConfigDir(home), 'basic', 'scenes');
  mkdirSync(dir, { recursive: true });
  const collection = {
    name: OBS_COLLECTION,
    current_scene: OBS_FIRST_SCENE,
    current_program_scene: OBS_FIRST_SCENE,
    scene_order: [{ name: OBS_FIRST_SCENE }],
    sources: [
      {
        id: 'scene',
        versioned_id: 'scene',
        name: OBS_FIRST_SCENE,
        enabled: true,
        flags: 0,
        mixers: 0,
        muted: false,
        volume: 1,
        settings: { custom_size: false, id_counter: 0, items: [] },
        private_settings: {},
      },
    ],
    groups: [],
    transitions: [],
    current_transition: 'Cut',
    transition_duration: 300,
    quick_transitions: [],
    saved_projectors: [],
    preview_locked: false,
    scaling_enabled: false,
    modules: {},
  };
  writeFileSync(join(dir, `${OBS_COLLECTION}.json`), JSON.stringify(collection, null, 2));
}
