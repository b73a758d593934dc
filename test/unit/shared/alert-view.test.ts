import { describe, expect, it } from 'vitest';
import { alertViewOf, variationAmount } from '../../../shared/alert-view';
import { DEFAULT_OVERLAY_SETTINGS } from '../../../shared/overlays';

const mediaUrl = (name: string): string => `/overlay/media/${name}`;
const defaults = DEFAULT_OVERLAY_SETTINGS.alerts;

describe('an alert as the alert box plays it', () => {
  it('is a new install’s gift alert: Greenroom’s own image and sound, its design, the plural right', () => {
    const view = alertViewOf(
      { id: 'm1', kind: 'gifted-subs', fields: { user: 'ann', count: '1' } },
      defaults['gifted-subs'],
      mediaUrl,
    );
    expect(view).toMatchObject({
      id: 'm1',
      text: 'ann gifted a sub!',
      image: 'builtin:gift.svg',
      sound: 'builtin:pop.wav',
      design: { preset: 'card', layout: 'above', animationIn: 'bounce', animationOut: 'fade' },
      variation: null,
    });
    expect(view.parts.filter((part) => part.em)).toEqual([
      { text: 'ann', em: 'name' },
      { text: 'a sub', em: 'amount' },
    ]);
  });

  it('takes the look for bigger amounts from its minimum on: gifts from 10, KICKs from 500', () => {
    const gifts = (count: string) =>
      alertViewOf({ id: 'g', kind: 'gifted-subs', fields: { user: 'a', count } }, defaults['gifted-subs'], mediaUrl);
    expect(gifts('9').variation).toBeNull();
    expect(gifts('10')).toMatchObject({ variation: 10, design: { preset: 'neon' }, image: 'builtin:gift-stack.svg' });
    expect(gifts('10').text).toBe('a gifted 10 subs! Sub train!');
    const kicks = (amount: string) =>
      alertViewOf({ id: 'k', kind: 'kicks', fields: { user: 'a', amount } }, defaults.kicks, mediaUrl);
    expect(kicks('499').variation).toBeNull();
    expect(kicks('500')).toMatchObject({
      variation: 500,
      sound: 'builtin:jackpot.wav',
      text: 'a sent 500 KICKs! Legendary!',
    });
  });

  it('keeps the alert’s own text, image or sound where a variation leaves them unset', () => {
    const template = {
      ...defaults.kicks,
      image: '0123456789abcdef.png',
      variations: [{ minAmount: 50, text: null, preset: null, image: null, sound: 'fedcba9876543210.ogg' }],
    };
    const view = alertViewOf({ id: 'k', kind: 'kicks', fields: { user: 'a', amount: '60' } }, template, mediaUrl);
    expect(view).toMatchObject({
      text: 'a sent 60 KICKs!',
      image: '/overlay/media/0123456789abcdef.png',
      sound: '/overlay/media/fedcba9876543210.ogg',
      design: { preset: defaults.kicks.preset },
      variation: 50,
    });
  });

  it('has no amount for kinds without one, nor for a value that is not a whole number', () => {
    expect(variationAmount('follow', { user: 'a', count: '50' })).toBeNull();
    expect(variationAmount('kicks', { amount: '1000' })).toBe(1000);
    expect(variationAmount('kicks', { amount: '1e3' })).toBeNull();
    expect(variationAmount('kicks', { amount: 'lots' })).toBeNull();
    expect(variationAmount('gifted-subs', {})).toBeNull();
  });
});
