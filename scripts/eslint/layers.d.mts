import type { Rule } from 'eslint';

export const LAYERS: readonly (readonly string[])[];
export function layerOf(root: string, file: string): string | undefined;
export function layerViolation(from: string, to: string): string | undefined;
export const layersRule: Rule.RuleModule;
