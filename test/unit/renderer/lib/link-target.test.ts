import { describe, expect, it } from 'vitest';
import { linkTarget } from '../../../../renderer/src/lib/link-target';

describe('where a chat link really goes', () => {
  it.each([
    ['https://kick.com@evil.example/', 'evil.example', 'kick.com'],
    ['https://kick.com:login@evil.example:8443/x', 'evil.example:8443', 'kick.com:login'],
    ['https://kick.com%2Fclips@evil.example/', 'evil.example', 'kick.com/clips'],
    ['https://kick.com/clips/1', 'kick.com', null],
    ['https://kíck.com/', 'xn--kck-rma.com', null],
    ['https://KICK.com./', 'kick.com.', null],
  ])('%s opens %s', (url, host, userinfo) => {
    expect(linkTarget(url)).toMatchObject({ host, userinfo, unsupported: false });
  });

  it('marks what the panel will not open', () => {
    expect(linkTarget('javascript:alert(1)')).toMatchObject({ unsupported: true });
    expect(linkTarget('not a url')).toBeNull();
  });
});
