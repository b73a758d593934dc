/**
 * `parseLiveFrame` never throws, and reads no frame into an event by a name that is Object's own machinery
 * (`__proto__`, `constructor`, `toString`, …): each is an unknown event, counted like any other.
 */
import { describe, expect, it } from 'vitest';
import { parseLiveFrame } from '../../../../shared/kick/live-frames';

const NAMES = [
  '__proto__',
  'constructor',
  'toString',
  'hasOwnProperty',
  'valueOf',
  'isPrototypeOf',
  '__defineGetter__',
];

describe('event names that are Object machinery', () => {
  for (const name of NAMES) {
    for (const raw of [name, `App\\Events\\${name}`]) {
      it(`reads ${raw} as an unknown event, as text and as an envelope`, () => {
        expect(parseLiveFrame(JSON.stringify({ event: raw, data: '{"id":"m"}' }), 'c')).toEqual({
          kind: 'unknown',
          name,
        });
        expect(parseLiveFrame({ event: raw, data: { id: 'm' } }, 'c')).toEqual({ kind: 'unknown', name });
      });
    }
  }
});
