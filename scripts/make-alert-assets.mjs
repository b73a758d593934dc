#!/usr/bin/env node
// `node scripts/make-alert-assets.mjs [folder]`: synthesises Greenroom's own alert sounds
// (docs/overlays.md#greenrooms-own-images-and-sounds) as small 16-bit mono WAV files, by default into
// renderer/src/overlay/media/, where the overlay page ships them. Pure arithmetic, no randomness but a
// seeded generator, so the same script always writes the same bytes: a unit test regenerates them and
// compares them with the committed files. The images beside them are SVGs drawn by hand.
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

export const SAMPLE_RATE = 22_050;
const root = join(dirname(fileURLToPath(import.meta.url)), '..');
export const MEDIA_DIR = join(root, 'renderer', 'src', 'overlay', 'media');

/** A note's frequency from its MIDI number (69 = A4 = 440 Hz). */
const hz = (midi) => 440 * 2 ** ((midi - 69) / 12);

/** A buffer of `seconds` of silence, as floats. */
const silence = (seconds) => new Float64Array(Math.round(seconds * SAMPLE_RATE));

/** A small deterministic generator (mulberry32) for the noise in a whoosh. */
function seeded(seed) {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * Adds a struck tone at `start` seconds: partials (ratio, level, decay per second) under a short attack,
 * so it rings like a bell or a glockenspiel rather than beeping.
 */
function strike(out, start, freq, { level = 0.5, partials = [[1, 1, 4]], attack = 0.004, length = 1.2 } = {}) {
  const from = Math.round(start * SAMPLE_RATE);
  const count = Math.min(out.length - from, Math.round(length * SAMPLE_RATE));
  for (let i = 0; i < count; i++) {
    const t = i / SAMPLE_RATE;
    const rise = Math.min(1, t / attack);
    let sample = 0;
    for (const [ratio, amount, decay] of partials) {
      const f = freq * ratio;
      if (f < SAMPLE_RATE / 2.2) {
        sample += amount * Math.exp(-decay * t) * Math.sin(2 * Math.PI * f * t);
      }
    }
    out[from + i] += level * rise * sample;
  }
}

/** A held, slightly vibrating brass-like note (additive harmonics falling off as 1/n). */
function blow(out, start, length, freq, level = 0.25) {
  const from = Math.round(start * SAMPLE_RATE);
  const count = Math.min(out.length - from, Math.round(length * SAMPLE_RATE));
  let phase = 0;
  for (let i = 0; i < count; i++) {
    const t = i / SAMPLE_RATE;
    const envelope = Math.min(1, t / 0.03) * Math.min(1, (length - t) / 0.12);
    const vibrato = 1 + 0.004 * Math.sin(2 * Math.PI * 5.5 * t) * Math.min(1, t / 0.2);
    phase += (2 * Math.PI * freq * vibrato) / SAMPLE_RATE;
    let sample = 0;
    for (let n = 1; n <= 7; n++) {
      sample += Math.sin(n * phase) / n ** 1.3;
    }
    out[from + i] += level * envelope * sample;
  }
}

/** A tone gliding from `f0` to `f1` (exponentially), with a soft envelope. */
function glide(out, start, length, f0, f1, level = 0.4, harmonics = [1]) {
  const from = Math.round(start * SAMPLE_RATE);
  const count = Math.min(out.length - from, Math.round(length * SAMPLE_RATE));
  let phase = 0;
  for (let i = 0; i < count; i++) {
    const t = i / SAMPLE_RATE;
    const f = f0 * (f1 / f0) ** (t / length);
    phase += (2 * Math.PI * f) / SAMPLE_RATE;
    const envelope = Math.min(1, t / 0.01) * Math.min(1, (length - t) / 0.05);
    let sample = 0;
    harmonics.forEach((amount, n) => (sample += amount * Math.sin((n + 1) * phase)));
    out[from + i] += level * envelope * sample;
  }
}

/** Noise through a one-pole low-pass whose cutoff sweeps up then down: air rushing past. */
function whoosh(out, start, length, level = 0.5, seed = 7) {
  const random = seeded(seed);
  const from = Math.round(start * SAMPLE_RATE);
  const count = Math.min(out.length - from, Math.round(length * SAMPLE_RATE));
  let low = 0;
  let lower = 0;
  for (let i = 0; i < count; i++) {
    const x = i / count;
    const cutoff = 300 + 4200 * Math.sin(Math.PI * x) ** 2;
    const a = 1 - Math.exp((-2 * Math.PI * cutoff) / SAMPLE_RATE);
    low += a * (random() * 2 - 1 - low);
    lower += a * (low - lower);
    out[from + i] += level * Math.sin(Math.PI * x) ** 1.5 * lower * 2.5;
  }
}

const BELL = [
  [1, 1, 3.2],
  [2.76, 0.35, 6],
  [5.4, 0.12, 11],
];
const GLOCK = [
  [1, 1, 5],
  [3, 0.18, 14],
  [6.2, 0.05, 24],
];
const COIN = [
  [1, 1, 9],
  [1.5, 0.55, 11],
  [2.8, 0.25, 16],
];

/** Each sound: its file name and how it is made. */
export const SOUNDS = {
  // Follow: two bell tones, up a fifth.
  'chime.wav': () => {
    const out = silence(1.1);
    strike(out, 0, hz(88), { partials: BELL, level: 0.45 });
    strike(out, 0.13, hz(95), { partials: BELL, level: 0.4 });
    return out;
  },
  // New sub: a quick rising glockenspiel arpeggio.
  'sparkle.wav': () => {
    const out = silence(1.1);
    [84, 88, 91, 96, 100].forEach((note, i) => strike(out, i * 0.07, hz(note), { partials: GLOCK, level: 0.32 }));
    strike(out, 0.38, hz(103), { partials: GLOCK, level: 0.22 });
    return out;
  },
  // Renewal: a major chord of bells, struck twice.
  'bells.wav': () => {
    const out = silence(1.4);
    for (const [at, level] of [
      [0, 0.3],
      [0.22, 0.26],
    ]) {
      [76, 80, 83].forEach((note, i) => strike(out, at + i * 0.012, hz(note), { partials: BELL, level }));
    }
    return out;
  },
  // Gifted subs: a pop, then a bright chime.
  'pop.wav': () => {
    const out = silence(0.9);
    glide(out, 0, 0.07, 900, 180, 0.55, [1, 0.3]);
    strike(out, 0.06, hz(91), { partials: GLOCK, level: 0.35 });
    strike(out, 0.14, hz(96), { partials: GLOCK, level: 0.3 });
    return out;
  },
  // A sub train: a short fanfare.
  'fanfare.wav': () => {
    const out = silence(1.7);
    blow(out, 0, 0.16, hz(67));
    blow(out, 0.17, 0.16, hz(72));
    blow(out, 0.34, 0.16, hz(76));
    blow(out, 0.51, 1.05, hz(79), 0.22);
    blow(out, 0.51, 1.05, hz(72), 0.14);
    strike(out, 0.51, hz(91), { partials: GLOCK, level: 0.18 });
    return out;
  },
  // KICKs: two coins.
  'coins.wav': () => {
    const out = silence(0.8);
    strike(out, 0, hz(95), { partials: COIN, level: 0.4, length: 0.7 });
    strike(out, 0.09, hz(100), { partials: COIN, level: 0.38, length: 0.7 });
    return out;
  },
  // A big KICKs gift: a cascade of coins over a rising arpeggio.
  'jackpot.wav': () => {
    const out = silence(1.8);
    for (let i = 0; i < 10; i++) {
      strike(out, i * 0.075, hz(93 + ((i * 5) % 9)), { partials: COIN, level: 0.22, length: 0.6 });
    }
    [72, 76, 79, 84].forEach((note, i) => strike(out, 0.1 + i * 0.11, hz(note), { partials: BELL, level: 0.22 }));
    strike(out, 0.6, hz(96), { partials: GLOCK, level: 0.25 });
    return out;
  },
  // A redemption: a whoosh and a ding.
  'whoosh.wav': () => {
    const out = silence(1.0);
    whoosh(out, 0, 0.42, 0.55);
    strike(out, 0.34, hz(93), { partials: BELL, level: 0.35 });
    return out;
  },
  // Going live: a rising sweep into a chord.
  'rise.wav': () => {
    const out = silence(1.5);
    glide(out, 0, 0.5, 220, 880, 0.22, [1, 0.4, 0.2]);
    [69, 73, 76, 81].forEach((note) => strike(out, 0.48, hz(note), { partials: BELL, level: 0.2 }));
    return out;
  },
};

/** 16-bit little-endian PCM in a RIFF/WAVE file, the peak brought to -3 dBFS and the last 30 ms faded. */
export function encodeWav(samples) {
  let peak = 0;
  for (const s of samples) {
    peak = Math.max(peak, Math.abs(s));
  }
  const gain = peak > 0 ? 0.708 / peak : 0;
  const fade = Math.round(0.03 * SAMPLE_RATE);
  const data = Buffer.alloc(samples.length * 2);
  samples.forEach((s, i) => {
    const tail = Math.min(1, (samples.length - i) / fade);
    data.writeInt16LE(Math.max(-32768, Math.min(32767, Math.round(s * gain * tail * 32767))), i * 2);
  });
  const header = Buffer.alloc(44);
  header.write('RIFF', 0, 'ascii');
  header.writeUInt32LE(36 + data.length, 4);
  header.write('WAVE', 8, 'ascii');
  header.write('fmt ', 12, 'ascii');
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20); // PCM
  header.writeUInt16LE(1, 22); // mono
  header.writeUInt32LE(SAMPLE_RATE, 24);
  header.writeUInt32LE(SAMPLE_RATE * 2, 28);
  header.writeUInt16LE(2, 32);
  header.writeUInt16LE(16, 34);
  header.write('data', 36, 'ascii');
  header.writeUInt32LE(data.length, 40);
  return Buffer.concat([header, data]);
}

/** Every sound's WAV bytes by file name. */
export function makeAlertSounds() {
  return Object.fromEntries(Object.entries(SOUNDS).map(([name, make]) => [name, encodeWav(make())]));
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const folder = process.argv[2] ?? MEDIA_DIR;
  mkdirSync(folder, { recursive: true });
  for (const [name, bytes] of Object.entries(makeAlertSounds())) {
    writeFileSync(join(folder, name), bytes);
    console.log(`${name}: ${bytes.length} bytes`);
  }
}
