export const SAMPLE_RATE: number;
export const MEDIA_DIR: string;
export const SOUNDS: Record<string, () => Float64Array>;
export function encodeWav(samples: Float64Array): Buffer;
export function makeAlertSounds(): Record<string, Buffer>;
