/**
 * The settings schemas of an alert's design ([Alert designs](../docs/overlays.md#alert-designs)): what a
 * template's image, sound, variations and the alert box's custom CSS may be. Apart from alert-design.ts so
 * the overlay page does not bundle zod.
 */
import { z } from 'zod';
import {
  ALERT_PRESETS,
  type AlertVariation,
  BUILTIN_IMAGES,
  BUILTIN_SOUNDS,
  CUSTOM_CSS_MAX,
  customCssProblem,
  IMAGE_NAME,
  SOUND_NAME,
} from './alert-design';

/** An image a template may show: one the streamer added (stored name), or one of Greenroom's own. */
export const alertImageSchema = z
  .string()
  .max(40)
  .refine(
    (ref) => IMAGE_NAME.test(ref) || (BUILTIN_IMAGES as readonly string[]).includes(ref),
    'must be an image added in the Overlays tab, or one of Greenroom’s own',
  );
/** A sound a template may play. */
export const alertSoundSchema = z
  .string()
  .max(40)
  .refine(
    (ref) => SOUND_NAME.test(ref) || (BUILTIN_SOUNDS as readonly string[]).includes(ref),
    'must be a sound added in the Overlays tab, or one of Greenroom’s own',
  );

export const alertVariationSchema: z.ZodType<AlertVariation> = z.object({
  minAmount: z.int().min(1).max(1_000_000),
  text: z.string().min(1).max(200).nullable().default(null),
  preset: z.enum(ALERT_PRESETS).nullable().default(null),
  image: alertImageSchema.nullable().default(null),
  sound: alertSoundSchema.nullable().default(null),
});

export const customCssSchema = z
  .string()
  .max(CUSTOM_CSS_MAX, `must be at most ${CUSTOM_CSS_MAX} characters`)
  .superRefine((css, ctx) => {
    const problem = customCssProblem(css);
    if (problem !== null) {
      ctx.addIssue({ code: 'custom', message: problem });
    }
  });
