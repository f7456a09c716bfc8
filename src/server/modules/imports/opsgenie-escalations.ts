import { DELAY_MINUTES_MAX, REPEAT_MAX } from '../../../shared/contracts/escalation-policies';
import type { Escalation } from './opsgenie-answers';
import type { MapContext } from './opsgenie-schedules';
import {
  ImportSourceError,
  type SourceEscalationPolicy,
  type SourceEscalationStep,
  type SourceTarget,
} from './source-snapshot';

/**
 * An Opsgenie escalation as a Baton escalation policy (issue 34, decision 271). Pure. Opsgenie's
 * rule delays count from the alert's creation and Baton's steps from the step before, so rules at
 * 0, 10 and 60 minutes are steps 0, 10 and 50 minutes apart; rules with the same delay are one
 * step. Nothing is rounded or dropped without a note.
 */

const MINUTE = 60_000;

export function policyOf(
  ctx: MapContext,
  e: Escalation,
  scheduleIds: ReadonlySet<string>,
): SourceEscalationPolicy {
  const subject = `Escalation “${e.name}”`;
  const rules = e.rules
    .map((rule, index) => ({ rule, index, ms: durationMs(rule.delay) }))
    .sort((a, b) => a.ms - b.ms || a.index - b.index);
  const kept: { minutes: number; target: SourceTarget }[] = [];
  for (const { rule, index, ms } of rules) {
    const which = `rule ${index + 1}`;
    const r = rule.recipient;
    let target: SourceTarget | null = null;
    if (r.type === 'schedule' && r.id && scheduleIds.has(r.id)) {
      target = { kind: 'schedule', sourceId: r.id };
      const notify = rule.notifyType ?? 'default';
      if (notify !== 'default') {
        ctx.note(
          'warning',
          subject,
          `Its ${which} notifies the ${notify} on call of “${r.name ?? r.id}”; Baton's step notifies who is on call now`,
        );
      }
    } else if (r.type === 'user' && r.id && ctx.personIds.has(r.id)) {
      target = { kind: 'person', sourceId: r.id };
    } else {
      ctx.note(
        'warning',
        subject,
        `Its ${which} notifies ${r.type === 'team' ? `the team “${r.name ?? r.id}”` : `a ${r.type} Baton cannot import (${r.name ?? r.username ?? r.id ?? 'unknown'})`}: not imported; add the people in Baton`,
      );
      continue;
    }
    if ((rule.condition ?? 'if-not-acked') !== 'if-not-acked') {
      ctx.note(
        'warning',
        subject,
        `Its ${which} runs ${rule.condition === 'if-not-closed' ? 'until the alert is closed' : `“${rule.condition}”`}; Baton's steps stop when an incident is acknowledged`,
      );
    }
    const minutes = Math.ceil(ms / MINUTE);
    if (minutes * MINUTE !== ms) {
      ctx.note(
        'warning',
        subject,
        `Its ${which} waits ${ms / 1000} seconds; Baton counts whole minutes, so it waits ${minutes}`,
      );
    }
    kept.push({ minutes, target });
  }
  const steps: SourceEscalationStep[] = [];
  let previous = 0;
  for (const k of kept) {
    const last = steps.at(-1);
    if (last && k.minutes === previous) {
      if (!last.targets.some((t) => t.kind === k.target.kind && t.sourceId === k.target.sourceId)) {
        last.targets.push(k.target);
      }
      continue;
    }
    const delayMinutes = k.minutes - previous;
    if (delayMinutes > DELAY_MINUTES_MAX) {
      ctx.note(
        'warning',
        subject,
        `A step waits ${delayMinutes} minutes; Baton's longest wait is ${DELAY_MINUTES_MAX} minutes (one day)`,
      );
    }
    steps.push({ delayMinutes, targets: [k.target] });
    previous = k.minutes;
  }
  if (steps.length === 0) {
    ctx.note('warning', subject, 'None of its rules notifies a schedule or a person Baton imports');
  }
  const count = e.repeat?.count ?? 0;
  let repeat = count;
  if (count > REPEAT_MAX) {
    repeat = REPEAT_MAX;
    ctx.note(
      'warning',
      subject,
      `It repeats ${count} times; Baton repeats a policy at most ${REPEAT_MAX} times, so it repeats ${REPEAT_MAX}`,
    );
  }
  const wait = e.repeat?.waitInterval ?? 0;
  return {
    sourceId: e.id,
    name: e.name,
    description: e.description || null,
    repeat,
    steps,
    // Opsgenie's wait after its last rule before it repeats.
    loopDelayMinutes: count > 0 && wait > 0 ? wait : null,
  };
}

const UNIT_MS: Record<string, number> = {
  days: 86_400_000,
  hours: 3_600_000,
  minutes: MINUTE,
  seconds: 1000,
  miliseconds: 1,
  milliseconds: 1,
  micros: 0.001,
  nanos: 0.000001,
};

function durationMs(d: Escalation['rules'][number]['delay']): number {
  const unit = d.timeUnit ?? 'minutes';
  const ms = UNIT_MS[unit];
  if (ms === undefined) {
    throw new ImportSourceError(`Opsgenie answered a delay in an unknown unit “${unit}”`);
  }
  return d.timeAmount * ms;
}
