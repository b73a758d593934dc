/** Which layout the page address asks for: `#/chat` the pop-out chat, `?compact=1` the companion. */
export type PanelView = 'full' | 'chat' | 'compact';

export function pickView(location: { hash: string; search: string }): PanelView {
  if (location.hash.replace(/^#\/?/, '') === 'chat') {
    return 'chat';
  }
  return new URLSearchParams(location.search).get('compact') === '1' ? 'compact' : 'full';
}
