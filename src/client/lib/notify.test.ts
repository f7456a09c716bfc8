import { describe, expect, test, vi } from 'vitest';

vi.mock('@/components/ui/use-toast', () => ({ toast: vi.fn() }));
// A worker's files share its modules (isolate: false): load these again, with the mock.
vi.resetModules();

const { toast } = await import('@/components/ui/use-toast');
const { guardSubmission, FORM_SUBMISSION_ERROR } = await import('./notify');

describe('guardSubmission', () => {
  test('runs the handler and reports nothing when it succeeds', async () => {
    const submit = vi.fn(async () => 'done');
    const report = vi.fn();
    await guardSubmission(submit, report);
    expect(submit).toHaveBeenCalledOnce();
    expect(report).not.toHaveBeenCalled();
  });

  test.each([
    [
      'a thrown error',
      () => {
        throw new Error('boom');
      },
    ],
    ['a rejected promise', () => Promise.reject(new TypeError('bad value'))],
  ])('turns %s into the Form submission error toast', async (_label, submit) => {
    vi.mocked(toast).mockClear();
    await expect(guardSubmission(submit)).resolves.toBeUndefined();
    expect(toast).toHaveBeenCalledWith({ variant: 'destructive', ...FORM_SUBMISSION_ERROR });
    expect(FORM_SUBMISSION_ERROR.description).toBe(
      'There was an error submitting the form. Please try again.',
    );
  });
});
