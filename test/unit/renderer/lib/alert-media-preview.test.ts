import { describe, expect, it } from 'vitest';
import { previewImageSrc, rememberPicked } from '../../../../renderer/src/lib/alert-media-preview';

const OVERLAY = 'http://127.0.0.1:4000/overlay/alerts?key=k_1';

describe('where the preview loads an alert image from', () => {
  it('passes Greenroom’s own and none through', () => {
    expect(previewImageSrc('builtin:heart.svg', OVERLAY, 'http://127.0.0.1:4000/')).toBe('builtin:heart.svg');
    expect(previewImageSrc(null, OVERLAY, 'http://127.0.0.1:4000/')).toBeNull();
  });

  it('shows a file picked in this session from its bytes, and an earlier one through the overlay key on the same server only', () => {
    rememberPicked('00000000000000aa.png', 'image/png', new Uint8Array([1, 2, 3]));
    expect(previewImageSrc('/overlay/media/00000000000000aa.png', null, 'file:///x')).toBe(
      'data:image/png;base64,AQID',
    );
    expect(previewImageSrc('/overlay/media/00000000000000bb.png', OVERLAY, 'http://127.0.0.1:4000/?token=t')).toBe(
      '/overlay/media/00000000000000bb.png?key=k_1',
    );
    // The desktop window is not the overlay's server: it gets nothing rather than a broken image.
    expect(previewImageSrc('/overlay/media/00000000000000bb.png', OVERLAY, 'file:///app/index.html')).toBeNull();
    expect(previewImageSrc('/overlay/media/00000000000000bb.png', null, 'http://127.0.0.1:4000/')).toBeNull();
  });
});
