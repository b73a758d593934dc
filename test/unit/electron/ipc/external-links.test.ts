import { describe, expect, it } from 'vitest';
import { EXTERNAL_HOSTS, isAllowedExternalUrl, linkPolicyFor } from '../../../../electron/ipc/external-links';

const policy = { hosts: EXTERNAL_HOSTS, origins: ['http://127.0.0.1:41234'] };

describe('isAllowedExternalUrl', () => {
  it.each([
    'https://kick.com/dashboard/settings/developer',
    'https://docs.kick.com/getting-started/kick-apps-setup',
    'https://github.com/greenroom-app/greenroom/issues',
    'http://127.0.0.1:41234/oauth/authorize?x=1',
  ])('allows %s', (url) => {
    expect(isAllowedExternalUrl(url, policy)).toBe(true);
  });

  it.each([
    'http://kick.com/',
    'https://evil.kick.com.example/',
    'https://kick.com.evil.example/',
    'https://kick.com:8443/',
    'https://user:pass@kick.com/',
    'http://127.0.0.1:41235/',
    'file:///etc/passwd',
    'javascript:alert(1)',
    'not a url',
  ])('refuses %s', (url) => {
    expect(isAllowedExternalUrl(url, policy)).toBe(false);
  });
});

describe('linkPolicyFor', () => {
  it("allows the sandbox's API, sign-in and admin pages in sandbox mode, and only Kick's and GitHub's otherwise", () => {
    const sandbox = { api: 'http://127.0.0.1:7410/', auth: 'http://127.0.0.1:7411', admin: 'http://127.0.0.1:7412/' };
    const inSandbox = linkPolicyFor(sandbox);
    for (const url of ['http://127.0.0.1:7410/x', 'http://127.0.0.1:7411/oauth/authorize', 'http://127.0.0.1:7412/']) {
      expect(isAllowedExternalUrl(url, inSandbox), url).toBe(true);
    }
    const onKick = linkPolicyFor(undefined);
    expect(isAllowedExternalUrl('http://127.0.0.1:7412/', onKick)).toBe(false);
    expect(isAllowedExternalUrl('https://kick.com/settings/developer', onKick)).toBe(true);
  });
});
