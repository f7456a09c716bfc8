import type { TestAlertPreview } from '@shared/contracts/integrations';
import { describe, expect, test } from 'vitest';
import { testAlertWarning } from './test-alert-text';

const payments = { id: 4, name: 'Payments' };
const preview = (over: Partial<TestAlertPreview>): TestAlertPreview => ({
  rotation: payments,
  policyName: 'Payments default',
  step: 1,
  pages: [],
  ...over,
});

describe('the warning before a test alert (decision 261)', () => {
  test.each([
    [
      'the holder',
      preview({ pages: [{ id: 1, name: 'Noah Kim', reasons: ['holder'] }] }),
      'This pages Noah Kim, on call for Payments now.',
    ],
    [
      'a later step, because nobody holds the baton',
      preview({ step: 3, pages: [{ id: 2, name: 'Priya Shah', reasons: ['next on call'] }] }),
      'This pages Priya Shah, next on call for Payments (step 3 of Payments default: the steps before it reach nobody now).',
    ],
    [
      'several people, on a policy alone',
      preview({
        rotation: null,
        policyName: 'Database escalation',
        pages: [
          { id: 1, name: 'Noah Kim', reasons: ['holder'] },
          { id: 3, name: 'Sam Lee', reasons: ['named'] },
        ],
      }),
      'This pages Noah Kim, on call now and Sam Lee, named in Database escalation.',
    ],
    [
      'nobody',
      preview({ step: null }),
      'This pages nobody now: no step of Payments default reaches anyone. The test incident stays open until someone acknowledges or resolves it.',
    ],
  ])('%s', (_case, input, words) => {
    expect(testAlertWarning(input)).toBe(words);
  });
});
