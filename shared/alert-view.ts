/**
 * One alert as the alert box plays it, from its template and the event's fields: the variation by amount
 * that applies, the text filled in with plurals and emphasis, and where its image and sound load from
 * ([Alert designs](../docs/overlays.md#alert-designs)). Main builds every alert with it; the panel's
 * preview builds its sample the same way, so what the streamer sees there is what OBS shows.
 */
import { fillTemplate, fillTemplateParts, isBuiltinMedia, pickVariation } from './alert-design';
import type { AlertFields, AlertKind, AlertTemplate, AlertView } from './overlays';

/** The amount a variation is picked by: gifted subs count, KICKs amount; other kinds have none. */
export function variationAmount(kind: AlertKind, fields: AlertFields): number | null {
  const value = kind === 'gifted-subs' ? fields.count : kind === 'kicks' ? fields.amount : undefined;
  const amount = value !== undefined && /^\d{1,15}$/.test(value) ? Number(value) : null;
  return amount;
}

export interface AlertInput {
  id: string;
  kind: AlertKind;
  fields: AlertFields;
}

/**
 * Builds the alert. `mediaUrl` turns a stored media name into the URL the page loads it from; Greenroom's
 * own files stay `builtin:…`, which the page resolves to the copies it ships.
 */
export function alertViewOf(input: AlertInput, template: AlertTemplate, mediaUrl: (name: string) => string): AlertView {
  const amount = variationAmount(input.kind, input.fields);
  const variation = amount === null ? null : pickVariation(template.variations, amount);
  const text = variation?.text ?? template.text;
  const image = variation?.image ?? template.image;
  const sound = variation?.sound ?? template.sound;
  const url = (ref: string | null): string | null => (ref === null ? null : isBuiltinMedia(ref) ? ref : mediaUrl(ref));
  return {
    id: input.id,
    kind: input.kind,
    text: fillTemplate(text, input.fields),
    parts: fillTemplateParts(text, input.fields),
    image: url(image),
    sound: url(sound),
    durationMs: template.durationMs,
    design: {
      preset: variation?.preset ?? template.preset,
      layout: template.layout,
      animationIn: template.animationIn,
      animationOut: template.animationOut,
    },
    variation: variation?.minAmount ?? null,
  };
}
