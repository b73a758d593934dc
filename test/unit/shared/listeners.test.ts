import { describe, expect, it } from 'vitest';
import { KeyedListeners, Listeners } from '../../../shared/listeners';

describe('Listeners', () => {
  it('calls each listener, and the unsubscribe removes only its own subscription', () => {
    const listeners = new Listeners<[number]>();
    const heard: string[] = [];
    const a = (n: number): void => void heard.push(`a${n}`);
    const offFirst = listeners.add(a);
    listeners.add(a);
    listeners.add((n) => heard.push(`b${n}`));
    listeners.emit(1);
    offFirst();
    offFirst();
    listeners.emit(2);
    expect(heard).toEqual(['a1', 'a1', 'b1', 'a2', 'b2']);
    expect(listeners.size).toBe(2);
  });

  it('reports a throwing listener and still calls the rest; changes during an emit apply to the next', () => {
    const errors: unknown[] = [];
    const listeners = new Listeners<[]>((error) => errors.push(error));
    const heard: string[] = [];
    let offLate: (() => void) | null = null;
    listeners.add(() => {
      heard.push('first');
      offLate?.();
      listeners.add(() => heard.push('added during emit'));
    });
    listeners.add(() => {
      throw new Error('boom');
    });
    offLate = listeners.add(() => heard.push('late'));
    listeners.emit();
    expect(heard).toEqual(['first', 'late']);
    expect(errors).toEqual([new Error('boom')]);
    heard.length = 0;
    offLate = null;
    listeners.emit();
    expect(heard).toEqual(['first', 'added during emit']);
  });
});

describe('KeyedListeners', () => {
  it('emits to the listeners of one key only', () => {
    const keyed = new KeyedListeners<string, [string]>();
    const heard: string[] = [];
    const off = keyed.add('chat', (p) => heard.push(`chat:${p}`));
    keyed.add('feed', (p) => heard.push(`feed:${p}`));
    keyed.emit('chat', 'x');
    keyed.emit('other', 'y');
    off();
    keyed.emit('chat', 'z');
    keyed.emit('feed', 'w');
    expect(heard).toEqual(['chat:x', 'feed:w']);
  });
});
