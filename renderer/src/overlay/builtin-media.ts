/**
 * Greenroom's own alert images and sounds (../../../docs/overlays.md#greenrooms-own-images-and-sounds), shipped
 * with the overlay page: an alert names one as `builtin:<file>` and the page loads it from its own files,
 * so a new install's alerts look and sound finished with nothing added. The SVGs are drawn by hand; the
 * sounds are made by scripts/make-alert-assets.mjs.
 */
import type { BUILTIN_IMAGES, BUILTIN_SOUNDS } from '../../../shared/alert-design';
import bells from './media/bells.wav';
import broadcast from './media/broadcast.svg';
import chime from './media/chime.wav';
import coinPile from './media/coin-pile.svg';
import coin from './media/coin.svg';
import coins from './media/coins.wav';
import crown from './media/crown.svg';
import fanfare from './media/fanfare.wav';
import giftStack from './media/gift-stack.svg';
import gift from './media/gift.svg';
import heart from './media/heart.svg';
import jackpot from './media/jackpot.wav';
import pop from './media/pop.wav';
import rise from './media/rise.wav';
import sparkle from './media/sparkle.wav';
import star from './media/star.svg';
import ticket from './media/ticket.svg';
import whoosh from './media/whoosh.wav';

type Builtin = (typeof BUILTIN_IMAGES)[number] | (typeof BUILTIN_SOUNDS)[number];

const URLS: Readonly<Record<Builtin, string>> = {
  'builtin:heart.svg': heart,
  'builtin:star.svg': star,
  'builtin:crown.svg': crown,
  'builtin:gift.svg': gift,
  'builtin:gift-stack.svg': giftStack,
  'builtin:coin.svg': coin,
  'builtin:coin-pile.svg': coinPile,
  'builtin:ticket.svg': ticket,
  'builtin:broadcast.svg': broadcast,
  'builtin:chime.wav': chime,
  'builtin:sparkle.wav': sparkle,
  'builtin:bells.wav': bells,
  'builtin:pop.wav': pop,
  'builtin:fanfare.wav': fanfare,
  'builtin:coins.wav': coins,
  'builtin:jackpot.wav': jackpot,
  'builtin:whoosh.wav': whoosh,
  'builtin:rise.wav': rise,
};

/** How the streamer sees each of Greenroom's own files named in the Overlays tab. */
export const BUILTIN_LABELS: Readonly<Record<Builtin, string>> = {
  'builtin:heart.svg': 'Heart',
  'builtin:star.svg': 'Star',
  'builtin:crown.svg': 'Crown',
  'builtin:gift.svg': 'Gift',
  'builtin:gift-stack.svg': 'Pile of gifts',
  'builtin:coin.svg': 'Coin',
  'builtin:coin-pile.svg': 'Pile of coins',
  'builtin:ticket.svg': 'Ticket',
  'builtin:broadcast.svg': 'On air',
  'builtin:chime.wav': 'Chime',
  'builtin:sparkle.wav': 'Sparkle',
  'builtin:bells.wav': 'Bells',
  'builtin:pop.wav': 'Pop',
  'builtin:fanfare.wav': 'Fanfare',
  'builtin:coins.wav': 'Coins',
  'builtin:jackpot.wav': 'Jackpot',
  'builtin:whoosh.wav': 'Whoosh',
  'builtin:rise.wav': 'Rise',
};

/**
 * Where the page loads an alert's image or sound from: Greenroom's own from the page's files, anything else
 * (a same-origin `/overlay/media/…` URL from main) as it is. An unknown `builtin:` name loads nothing.
 */
export function mediaSrc(ref: string | null): string | null {
  if (ref === null || !ref.startsWith('builtin:')) {
    return ref;
  }
  return (URLS as Readonly<Record<string, string>>)[ref] ?? null;
}
