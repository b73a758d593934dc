/** The panel's sections, in tab order. */
export type TabId =
  'chat' | 'activity' | 'redemptions' | 'rewards' | 'ads' | 'stream' | 'overlays' | 'kicks' | 'health' | 'settings';
