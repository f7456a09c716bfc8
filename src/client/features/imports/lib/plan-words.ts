import type { ImportPlan } from '@shared/contracts/imports';

/** summaryWords says in one line what applying the plan would do. */
export function summaryWords(plan: ImportPlan): string {
  const s = plan.summary;
  const parts = [
    `${s.create} new`,
    `${s.update} changed`,
    `${s.unchanged} unchanged`,
    `${s.invite} ${s.invite === 1 ? 'person' : 'people'} invited`,
  ];
  const warnings = s.warnings ? `; ${s.warnings} ${s.warnings === 1 ? 'warning' : 'warnings'}` : '';
  return `${parts.join(', ')}${warnings}`;
}
