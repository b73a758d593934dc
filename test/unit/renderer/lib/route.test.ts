import { describe, expect, it } from 'vitest';
import { pickView } from '../../../../renderer/src/lib/route';

describe('route', () => {
  it('picks the view from the address', () => {
    expect(pickView({ hash: '#/chat', search: '' })).toBe('chat');
    expect(pickView({ hash: '', search: '?compact=1&token=x' })).toBe('compact');
    expect(pickView({ hash: '', search: '' })).toBe('full');
  });
});
