/**
 * Alerts worth showing (docs/overlays.md#alert-designs), in the alert box overlay page in Chromium, fed by
 * real Kick events from the sandbox through Greenroom: each alert type's default design with its image,
 * sound and animation; plurals; the look for bigger amounts; and the README's pictures of every default
 * design on a game scene.
 */
import { describe, expect, it } from 'vitest';
import { triggerEvent } from '../../sandbox/triggers';
import {
  animationNames,
  fx,
  imageWidth,
  openAlertBox,
  sceneShot,
  settled,
  soundPlaying,
  updateOverlays,
  useAlertWorld,
  WAIT,
} from './alert-designs-fixtures';

useAlertWorld();

/** `count` gifts in one event, to ids no sandbox viewer has (Kick's payload then names a fallback user). */
const giftees = (count: number) => Array.from({ length: count }, (_, i) => ({ user_id: 990_001 + i }));

describe('the alert box’s designs', () => {
  it('plays a gift with its image, its sound and its animation in, the name and amount emphasised', async () => {
    const { page } = await openAlertBox();
    triggerEvent(fx.e2e.sandbox.ctx, 'channel.subscription.gifts', {
      overrides: { giftees: giftees(1), gifter: { is_anonymous: false } },
    });
    const alert = page.locator('[data-alert-id][data-kind="gifted-subs"]');
    await alert.waitFor(WAIT);
    // The animation in is running (bounce, the gift's default), then finishes.
    const animations = await animationNames(alert);
    expect(animations).toEqual(['overlay-bounce-in']);
    await settled(page);

    // One gift reads "a sub", not "1 subs"; the gifter's name and the amount are emphasised.
    const text = (await alert.locator('.text').textContent())!.replace(/\s+/g, ' ').trim();
    expect(text).toMatch(/^\S+ gifted a sub!$/);
    expect(await alert.locator('strong.em-name').textContent()).toBe(text.split(' ')[0]);
    expect(await alert.locator('strong.em-amount').textContent()).toBe('a sub');
    expect(await alert.getAttribute('data-preset')).toBe('card');

    // Greenroom's own image, drawn (not a broken image), from the page itself.
    const image = alert.locator('img');
    expect((await imageWidth(image)) > 0).toBe(true);
    expect(await image.getAttribute('src')).toMatch(/^(data:image\/svg\+xml|\/overlay\/assets\/|\.\/assets\/)/);

    // Its sound plays: the audio element has begun and its time moves on.
    const sound = alert.locator('audio');
    await expect.poll(() => soundPlaying(sound), WAIT).toBe(true);
    expect(await page.evaluate('window.__violations')).toEqual([]);

    // And it goes out with its animation before it leaves.
    await expect.poll(() => animationNames(alert), WAIT).toEqual(['overlay-fade-out']);
    await alert.waitFor({ ...WAIT, state: 'detached' });
    await page.context().close();
  });

  it('shows a gift of 12 in the look for 10 and more, with its own image and sound', async () => {
    const { page } = await openAlertBox({ width: 640, height: 360 });
    triggerEvent(fx.e2e.sandbox.ctx, 'channel.subscription.gifts', {
      overrides: { giftees: giftees(12), gifter: { is_anonymous: false } },
    });
    const alert = page.locator('[data-alert-id][data-kind="gifted-subs"]');
    await alert.waitFor(WAIT);
    expect(await alert.getAttribute('data-variation')).toBe('10');
    expect(await alert.getAttribute('data-preset')).toBe('neon');
    expect(await alert.locator('.text').textContent()).toMatch(/gifted 12 subs! Sub train!/);
    expect(await alert.locator('audio').getAttribute('src')).toMatch(/fanfare/);
    await settled(page);
    await sceneShot(page, 'alert-design-gift-train');
    await page.context().close();
  });

  it('draws each alert type’s default design on a game (README)', { timeout: 120_000 }, async () => {
    const updated = await updateOverlays((settings) => {
      for (const template of Object.values(settings.alerts)) {
        template.durationMs = 2500;
      }
    });
    expect(updated.ok).toBe(true);
    const { page } = await openAlertBox({ width: 640, height: 360 });
    const viewer = { user_id: fx.e2e.sandbox.ctx.state.userByName('pixelpanda')!.userId };
    const shots: [string, string, Parameters<typeof triggerEvent>[2]][] = [
      ['follow', 'channel.followed', { overrides: { follower: viewer } }],
      ['subscription', 'channel.subscription.new', { overrides: { subscriber: viewer, duration: 1 } }],
      ['renewal', 'channel.subscription.renewal', { overrides: { subscriber: viewer, duration: 6 } }],
      [
        'gifted-subs',
        'channel.subscription.gifts',
        { overrides: { gifter: { ...viewer, is_anonymous: false }, giftees: giftees(5) } },
      ],
      ['kicks', 'kicks.gifted', { overrides: { sender: viewer, gift: { amount: 100 } } }],
      ['redemption', 'channel.reward.redemption.updated', { overrides: { redeemer: viewer } }],
      ['live', 'livestream.status.updated', { overrides: { is_live: true, title: 'Ranked grind to Diamond' } }],
    ];
    for (const [kind, type, options] of shots) {
      triggerEvent(fx.e2e.sandbox.ctx, type, options);
      const alert = page.locator(`[data-alert-id][data-kind="${kind}"]`);
      await alert.waitFor(WAIT);
      await settled(page);
      expect(await imageWidth(alert.locator('img'))).toBeGreaterThan(0);
      await sceneShot(page, `alert-design-${kind}`);
      await alert.waitFor({ ...WAIT, state: 'detached' });
    }
    expect(await page.evaluate('window.__violations')).toEqual([]);
  });
});
