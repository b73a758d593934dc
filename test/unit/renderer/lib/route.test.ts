import { describe, expect, it } from 'vitest';
import { pickView, viewUrl } from '../../../../renderer/src/lib/route';

describe('route', () => {
  it('picks the view from the address', () => {
    expect(pickView({ hash: '#/chat', search: '' })).toBe('chat');
    expect(pickView({ hash: '', search: '?compact=1&token=x' })).toBe('compact');
    expect(pickView({ hash: '', search: '' })).toBe('full');
  });
});

describe('viewUrl', () => {
  const page = { origin: 'http://127.0.0.1:4470', pathname: '/' };

  it('carries the dock URL’s token to the chat-only page and the companion, nothing else of the address', () => {
    const dock = 'http://127.0.0.1:4470/?token=s3cr%2Bt';
    expect(viewUrl('chat', page, dock)).toBe('http://127.0.0.1:4470/?token=s3cr%2Bt#/chat');
    expect(viewUrl('compact', page, dock)).toBe('http://127.0.0.1:4470/?token=s3cr%2Bt&compact=1');
    expect(pickView({ hash: '#/chat', search: '?token=s3cr%2Bt' })).toBe('chat');
  });

  it('keeps the page’s own host (localhost, a dev server) and leaves the token out when none is known', () => {
    const dev = { origin: 'http://localhost:5173', pathname: '/index.html' };
    expect(viewUrl('chat', dev, 'http://127.0.0.1:4470/?token=abc')).toBe(
      'http://localhost:5173/index.html?token=abc#/chat',
    );
    expect(viewUrl('chat', page, null)).toBe('http://127.0.0.1:4470/#/chat');
    expect(viewUrl('compact', page, 'not a url')).toBe('http://127.0.0.1:4470/?compact=1');
  });
});
