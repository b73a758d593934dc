/** The panel's sections, in tab order. */
export type TabId =
  | 'chat'
  | 'activity'
  | 'redemptions'
  | 'rewards'
  | 'ads'
  | 'stream'
  | 'overlays'
  | 'automation'
  | 'kicks'
  | 'health'
  | 'settings';
