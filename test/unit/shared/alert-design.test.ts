import { describe, expect, it } from 'vitest';
import {
  type AlertVariation,
  customCssProblem,
  fillTemplate,
  fillTemplateParts,
  pickVariation,
} from '../../../shared/alert-design';
import { DEFAULT_OVERLAY_SETTINGS, overlaySettingsSchema } from '../../../shared/overlays';

const variation = (minAmount: number, preset: AlertVariation['preset'] = null): AlertVariation => ({
  minAmount,
  text: `from ${minAmount}`,
  preset,
  image: null,
  sound: null,
});

describe('plurals in alert text', () => {
  it('reads one gift as "a sub" and more as "N subs", never "1 subs"', () => {
    const text = '{user} gifted {count:a sub|# subs}!';
    expect(fillTemplate(text, { user: 'ann', count: '1' })).toBe('ann gifted a sub!');
    expect(fillTemplate(text, { user: 'ann', count: '5' })).toBe('ann gifted 5 subs!');
    expect(fillTemplate(text, { user: 'ann', count: '0' })).toBe('ann gifted 0 subs!');
  });

  it('puts the number in front when neither form names it, with thousands separators', () => {
    expect(fillTemplate('{months:month|months}', { months: '1' })).toBe('1 month');
    expect(fillTemplate('{months:month|months}', { months: '12' })).toBe('12 months');
    expect(fillTemplate('{amount:KICK|KICKs}', { amount: '1' })).toBe('1 KICK');
    expect(fillTemplate('{amount:KICK|KICKs}', { amount: '25000' })).toBe('25,000 KICKs');
    expect(fillTemplate('{amount}', { amount: '1000' })).toBe('1,000');
    // Only amounts: a chat command's argument or a title stays as typed.
    expect(fillTemplate('{args} {title}', { args: '2024', title: '1000' })).toBe('2024 1000');
  });

  it('leaves a field it does not know, or a plural of a value that is not a number, as typed', () => {
    expect(fillTemplate('{nope} {user:a|b}', { user: 'ann' })).toBe('{nope} ann');
    expect(fillTemplate('{count:a sub|# subs}', {})).toBe('{count:a sub|# subs}');
  });

  it('marks the name, the amount and the reward for emphasis, and nothing else', () => {
    expect(
      fillTemplateParts('{user} gifted {count:a sub|# subs} for {reward}!', {
        user: 'ann',
        count: '3',
        reward: 'Hydrate',
      }),
    ).toEqual([
      { text: 'ann', em: 'name' },
      { text: ' gifted ' },
      { text: '3 subs', em: 'amount' },
      { text: ' for ' },
      { text: 'Hydrate', em: 'reward' },
      { text: '!' },
    ]);
    expect(fillTemplateParts('Live: {title}', { title: 'GG' })).toEqual([{ text: 'Live: ' }, { text: 'GG' }]);
  });

  it('reads the texts earlier versions stored as defaults as today’s, with the right plural', () => {
    const stored = structuredClone(DEFAULT_OVERLAY_SETTINGS) as unknown as Record<
      string,
      Record<string, Record<string, unknown>>
    >;
    stored.alerts!['gifted-subs']!.text = '{user} gifted {count} subs!';
    stored.alerts!.renewal!.text = '{user} resubscribed for {months} months!';
    stored.alerts!.kicks!.text = '{user} sent {amount} KICKs, thanks!';
    const read = overlaySettingsSchema.parse(stored);
    expect(fillTemplate(read.alerts['gifted-subs'].text, { user: 'a', count: '1' })).toBe('a gifted a sub!');
    expect(fillTemplate(read.alerts.renewal.text, { user: 'a', months: '1' })).toBe('a resubscribed for 1 month!');
    // A text the streamer wrote is theirs.
    expect(read.alerts.kicks.text).toBe('{user} sent {amount} KICKs, thanks!');
  });
});

describe('variations by amount', () => {
  const list = [variation(500, 'card'), variation(10), variation(100, 'neon')];

  it('picks the highest minimum the amount reaches, whatever the order', () => {
    expect(pickVariation(list, 9)).toBeNull();
    expect(pickVariation(list, 10)?.minAmount).toBe(10);
    expect(pickVariation(list, 499)?.minAmount).toBe(100);
    expect(pickVariation(list, 500)?.minAmount).toBe(500);
    expect(pickVariation(list, 1_000_000)?.minAmount).toBe(500);
    expect(pickVariation([], 1_000_000)).toBeNull();
  });

  it('takes the first of two with the same minimum', () => {
    expect(pickVariation([variation(10, 'neon'), variation(10, 'card')], 10)?.preset).toBe('neon');
  });
});

describe('custom CSS', () => {
  it('takes CSS that stays in the overlay', () => {
    expect(customCssProblem('.em-name { color: gold } .art img { filter: hue-rotate(90deg) }')).toBeNull();
    expect(customCssProblem('.gr-alert { background: url("/overlay/media/0123456789abcdef.png") }')).toBeNull();
    expect(customCssProblem('.x { background: url(data:image/png;base64,iVBORw0KGgo=) }')).toBeNull();
  });

  it('refuses anything that would load from elsewhere, however it is written', () => {
    for (const css of [
      '.x { background: url(https://tracker.example/p.gif) }',
      '.x { background: URL( "//tracker.example/p.gif" ) }',
      '@import "https://evil.example/x.css";',
      '/* */@IMPORT url(x.css);',
      '.x { background: -webkit-image-set("https://e.example/a.png" 1x) }',
      '.x { background: image-set("https://e.example/a.png" 1x) }',
      '@font-face { font-family: x; src: url(https://fonts.example/x.woff2) }',
      '.x { background: u\\72l(https://e.example/a.png) }',
      '.x { background: url(/overlay/media/../../settings.json) }',
      '</style><script>alert(1)</script>',
    ]) {
      expect(customCssProblem(css), css).not.toBeNull();
    }
  });
});
