/**
 * OBS actions on events ([OBS actions on events](../docs/obs.md#obs-actions-on-events)): what Greenroom asks
 * OBS to do when something happens on Kick. An ad break Greenroom ran switches to a scene and back; a chosen
 * reward shows a source for some seconds; the stream going live or offline switches scene. Edited in the
 * Automation tab and carried by its export file; main runs them (electron/obs/obs-actions.ts). Platform-free.
 */
import { z } from 'zod';
import { OBS_NAME_MAX } from './obs';

/** Seconds a reward's source stays shown. */
export const SHOW_SECONDS_MIN = 1;
export const SHOW_SECONDS_MAX = 300;
/** Reward actions kept: Kick allows 15 rewards a channel, so 20 leaves room for ones since deleted. */
export const REWARD_ACTIONS_MAX = 20;
/** Kick's reward ids are short (a ULID); 64 leaves room without letting a file carry a novel. */
export const REWARD_ID_MAX = 64;
/** Kick's reward titles are at most 50 characters. */
export const REWARD_TITLE_MAX = 50;

const obsName = (what: string) =>
  z
    .string()
    .trim()
    .min(1, `${what}: enter the name as OBS shows it`)
    .max(OBS_NAME_MAX, `${what}: must be at most ${OBS_NAME_MAX} characters`);

/** A scene switch on an event: off, or on with the scene to switch to. */
export const sceneSwitchSchema = z.object({
  enabled: z.boolean().default(false),
  /** Empty while off and never set; an action that is on needs one (checked by the save schema). */
  scene: z.string().trim().max(OBS_NAME_MAX, `scene: must be at most ${OBS_NAME_MAX} characters`).default(''),
});
export type SceneSwitch = z.infer<typeof sceneSwitchSchema>;

/** A reward redeemed → a source shown for `seconds`, then hidden again. */
export const rewardActionSchema = z.object({
  enabled: z.boolean().default(true),
  rewardId: z
    .string()
    .trim()
    .min(1, 'reward: choose a reward')
    .max(REWARD_ID_MAX, `reward: the id must be at most ${REWARD_ID_MAX} characters`),
  /** The reward's title when it was chosen, for display: Kick's own id names it, the title may change. */
  rewardTitle: z.string().max(REWARD_TITLE_MAX, `reward: the title must be at most ${REWARD_TITLE_MAX} characters`),
  source: obsName('source'),
  /** The scene holding the source; null shows it in whatever scene is on air at the time. */
  scene: obsName('scene').nullable().default(null),
  seconds: z
    .int(`seconds: must be a whole number from ${SHOW_SECONDS_MIN} to ${SHOW_SECONDS_MAX}`)
    .min(SHOW_SECONDS_MIN, `seconds: must be from ${SHOW_SECONDS_MIN} to ${SHOW_SECONDS_MAX}`)
    .max(SHOW_SECONDS_MAX, `seconds: must be from ${SHOW_SECONDS_MIN} to ${SHOW_SECONDS_MAX}`)
    .default(10),
});
export type RewardAction = z.infer<typeof rewardActionSchema>;

export const obsActionsSettingsSchema = z.object({
  /** An ad break Greenroom ran: switch to this scene, and back when it ends if OBS is still on it. */
  adBreak: sceneSwitchSchema.prefault({}),
  rewards: z
    .array(rewardActionSchema)
    .max(REWARD_ACTIONS_MAX, `reward actions: at most ${REWARD_ACTIONS_MAX}`)
    .default([]),
  goLive: sceneSwitchSchema.prefault({}),
  goOffline: sceneSwitchSchema.prefault({}),
  /** An incoming raid (from Kick's live socket): switch to this scene to greet the raiders. */
  raid: sceneSwitchSchema.prefault({}),
});
export type ObsActionsSettings = z.infer<typeof obsActionsSettingsSchema>;

export const DEFAULT_OBS_ACTIONS: ObsActionsSettings = obsActionsSettingsSchema.parse({});

/** The scene-switch actions, as the editor and the feed name them. */
export const SCENE_SWITCHES = ['adBreak', 'goLive', 'goOffline', 'raid'] as const;
export type SceneSwitchKey = (typeof SCENE_SWITCHES)[number];

/**
 * The actions as a panel may save them (the import included): an action that is on names its scene, and a
 * reward has one action at most (two would fight over the same source's timer).
 */
export const obsActionsSaveSchema = obsActionsSettingsSchema.superRefine((settings, ctx) => {
  for (const key of SCENE_SWITCHES) {
    if (settings[key].enabled && settings[key].scene === '') {
      ctx.addIssue({ code: 'custom', path: [key, 'scene'], message: 'scene: choose the scene to switch to' });
    }
  }
  const seen = new Set<string>();
  settings.rewards.forEach((action, i) => {
    if (seen.has(action.rewardId)) {
      ctx.addIssue({
        code: 'custom',
        path: ['rewards', i, 'rewardId'],
        message: 'reward: this reward already has an action; change that one instead',
      });
    }
    seen.add(action.rewardId);
  });
});
