/**
 * An OBS overlay page (`/overlay/<kind>?key=…`, docs/overlays.md): reads its kind from the path and its key
 * from the query, follows Greenroom's overlay feed and renders it. Nothing here can act on the channel.
 */
import { mount } from 'svelte';
// From overlay-paths, not overlays.ts: the page carries no settings schemas (and no zod, which probes
// `new Function` and so trips the page's policy).
import { OVERLAY_KINDS } from '../../../shared/overlay-paths';
import type { OverlayKind } from '../../../shared/overlays';
import OverlayRoot from './OverlayRoot.svelte';
import { OverlayFeed } from './overlay-feed.svelte';
import { connectOverlay } from './overlay-link';
import './overlay.css';

const target = document.getElementById('overlay');
const kind = location.pathname.split('/').pop() as OverlayKind;
const key = new URLSearchParams(location.search).get('key') ?? '';
if (!target || !(OVERLAY_KINDS as readonly string[]).includes(kind)) {
  throw new Error('Greenroom overlay: open it from the URL Greenroom gives (Overlays → Copy URL)');
}
const feed = new OverlayFeed();
const link = connectOverlay(
  kind,
  key,
  (frame) => feed.apply(frame),
  (status) => (feed.status = status),
);
export default mount(OverlayRoot, { target, props: { kind, feed, onAlertDone: (id: string) => link.alertDone(id) } });
