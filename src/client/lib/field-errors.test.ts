import { describe, expect, test } from 'vitest';
import { ApiRequestError } from '@/lib/api-client';
import { fieldErrorsOf } from './field-errors';

const refused = (status: number, fields?: Record<string, string>) =>
  new ApiRequestError(status, 'refused', {
    message: 'title: Enter a title',
    code: 'VALIDATION_FAILED',
    ...(fields ? { fields } : {}),
  });

describe('fieldErrorsOf', () => {
  test('a 400 with fields gives the messages of the form’s fields only', () => {
    expect(
      fieldErrorsOf(refused(400, { title: 'Enter a title', other: 'x' }), ['title', 'severity']),
    ).toEqual({ title: 'Enter a title' });
  });

  test('nothing to show beside a field gives null', () => {
    expect(fieldErrorsOf(refused(400, { other: 'x' }), ['title'])).toBeNull();
    expect(fieldErrorsOf(refused(400), ['title'])).toBeNull();
    expect(fieldErrorsOf(refused(403, { title: 'no' }), ['title'])).toBeNull();
    expect(fieldErrorsOf(new Error('network'), ['title'])).toBeNull();
  });
});
