/** Which layout the page address asks for: `#/chat` the pop-out chat, `?compact=1` the companion. */
export type PanelView = 'full' | 'chat' | 'compact';

export function pickView(location: { hash: string; search: string }): PanelView {
  if (location.hash.replace(/^#\/?/, '') === 'chat') {
    return 'chat';
  }
  return new URLSearchParams(location.search).get('compact') === '1' ? 'compact' : 'full';
}

/**
 * The address of another layout of this same panel: this page's origin and path, the panel's access token
 * as `dockUrl` carries it (`?token=`, taken out of the address bar by the new page as by any panel page,
 * renderer/src/lib/transport.ts), and the layout's own part of the address. With no `dockUrl` the address
 * has no token: that is the one for a window this page opens itself, which still connects because the
 * browser copies this tab's session storage, which holds the token, into it (pop-out.ts). The token goes
 * only into the link the streamer opens by hand, when the window could not open.
 */
export function viewUrl(
  view: Exclude<PanelView, 'full'>,
  page: { origin: string; pathname: string },
  dockUrl: string | null,
): string {
  const params = new URLSearchParams();
  const token = dockUrl && URL.canParse(dockUrl) ? new URL(dockUrl).searchParams.get('token') : null;
  if (token) {
    params.set('token', token);
  }
  if (view === 'compact') {
    params.set('compact', '1');
  }
  const query = params.toString();
  return `${page.origin}${page.pathname}${query ? `?${query}` : ''}${view === 'chat' ? '#/chat' : ''}`;
}
