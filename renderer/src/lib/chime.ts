/**
 * The highlight sound: a short two-note tone made with Web Audio, so it needs no sound file and nothing
 * beyond the panel's CSP. A browser that has not had a click in the panel yet may keep audio suspended;
 * then the tone is skipped rather than queued up to play all at once later.
 */
export type ChimeFn = () => void;

let context: AudioContext | null = null;

export const playChime: ChimeFn = () => {
  if (typeof AudioContext === 'undefined') {
    return;
  }
  context ??= new AudioContext();
  if (context.state === 'suspended') {
    void context.resume();
    return;
  }
  const start = context.currentTime;
  for (const [i, frequency] of [880, 1320].entries()) {
    const osc = context.createOscillator();
    const gain = context.createGain();
    osc.frequency.value = frequency;
    gain.gain.setValueAtTime(0.15, start + i * 0.09);
    gain.gain.exponentialRampToValueAtTime(0.001, start + i * 0.09 + 0.18);
    osc.connect(gain).connect(context.destination);
    osc.start(start + i * 0.09);
    osc.stop(start + i * 0.09 + 0.2);
  }
};

/**
 * Lets the chime play from now on: called from a click (the notifications switch), where a browser allows
 * audio to start, so a later follow or sub in a tab the streamer is not looking at still sounds.
 */
export function unlockChime(): void {
  if (typeof AudioContext === 'undefined') {
    return;
  }
  context ??= new AudioContext();
  if (context.state === 'suspended') {
    void context.resume();
  }
}
