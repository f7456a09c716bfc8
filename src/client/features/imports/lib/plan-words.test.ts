import type { ImportPlan } from '@shared/contracts/imports';
import { describe, expect, it } from 'vitest';
import { summaryWords } from './plan-words';

const plan = (summary: ImportPlan['summary']) => ({ summary }) as ImportPlan;

describe('summaryWords', () => {
  it('says what applying does, with the warnings when there are any', () => {
    expect(summaryWords(plan({ create: 5, update: 1, unchanged: 0, invite: 3, warnings: 2 }))).toBe(
      '5 new, 1 changed, 0 unchanged, 3 people invited; 2 warnings',
    );
  });

  it('counts one person and one warning in the singular, and leaves out no warnings', () => {
    expect(summaryWords(plan({ create: 0, update: 0, unchanged: 4, invite: 1, warnings: 1 }))).toBe(
      '0 new, 0 changed, 4 unchanged, 1 person invited; 1 warning',
    );
    expect(summaryWords(plan({ create: 1, update: 0, unchanged: 0, invite: 0, warnings: 0 }))).toBe(
      '1 new, 0 changed, 0 unchanged, 0 people invited',
    );
  });
});
