import { describe, expect, it } from 'vitest';
import { fieldDetails, fieldRefusalsOf, MAX_FIELD_REFUSALS, withoutFieldPrefix } from '../../../shared/field-refusal';
import { checkInvoke } from '../../../shared/validate-message';

describe('field refusals', () => {
  it('carries each refused field of a contract check as data', () => {
    const checked = checkInvoke('settings:update', [
      { chatBot: { commands: [{ name: '' }] }, redirectUri: 'http://localhost:99999/cb' },
    ]);
    expect(checked.ok).toBe(false);
    const refusals = checked.ok ? [] : fieldRefusalsOf(checked.error);
    expect(refusals).toContainEqual({ field: 'redirectUri', reason: 'The port must be between 1 and 65535.' });
    expect(refusals.some((r) => r.field.startsWith('chatBot.'))).toBe(true);
  });

  it('reads an error that names only `details.field`, dropping the repeated prefix', () => {
    expect(fieldRefusalsOf({ code: 'InvalidArgument', message: 'file: too big', details: { field: 'file' } })).toEqual([
      { field: 'file', reason: 'too big' },
    ]);
    expect(fieldRefusalsOf({ code: 'Internal', message: 'x' })).toEqual([]);
  });

  it('keeps at most a bounded number, in order', () => {
    const many = Array.from({ length: 50 }, (_, i) => ({ field: `a.${i}`, reason: 'r' }));
    const details = fieldDetails(many);
    expect(details.fields).toHaveLength(MAX_FIELD_REFUSALS);
    expect(details.field).toBe('a.0');
  });

  it('drops a reason prefix that repeats the field name', () => {
    expect(withoutFieldPrefix('ads.seconds', 'seconds: must be between 30 and 180')).toBe('must be between 30 and 180');
    expect(withoutFieldPrefix('a.b', 'other: x')).toBe('other: x');
  });
});
