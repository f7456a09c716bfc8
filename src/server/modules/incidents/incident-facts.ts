import type { EscalationProgress } from '../../../shared/domain/escalation';
import {
  PAGE_MESSAGES,
  type PageFacts,
  type PageStatus,
  URGENCY_POLICY,
  type Urgency,
} from '../../../shared/domain/paging';
import type { ManagedRotationFacts } from '../../../shared/domain/permissions-rotation';
import type { Clock } from '../../core/clock';
import type { Config } from '../../core/config';
import type { Database } from '../../db/client';
import { conflict } from '../../http/errors';
import type { MemberRoles } from '../members/member-reads';
import type { RotationRef } from '../notifications/messages';
import type { NotifyDeps } from '../notifications/notify';
import type { PageRef } from '../notifications/person-events';
import type { IncidentRotation, IncidentRow, LockedIncident } from './incident-repository';
import { openIncidentText, pageMessageOf } from './incident-text';

/**
 * What every incident operation shares, the Page API's included: its dependencies, the domain
 * facts of an incident row as a page, the managers of its rotation, and the refusal of an action
 * on a closed page.
 */

/** What the engine, the actions and the reads need from the app. */
export interface IncidentDeps extends NotifyDeps {
  database: Database;
  clock: Clock;
  /** and the handoff timings: who is backup after a handoff (the escalation world) */
  config?: NotifyDeps['config'] & Partial<Pick<Config, 'handoffTimings'>>;
}

/** What taking a step needs: the cipher and the configuration (links, SMS replies, timings). */
export type StepDeps = Pick<IncidentDeps, 'cipher' | 'config'>;

/** How a step is taken: by the clock, by a person's hand (with their reason), or on raising. */
export interface StepCause {
  automatic: boolean;
  actorId: number | null;
  /** the reason a person gave (escalate by hand, reassign) */
  reason?: string;
  /**
   * a resolved incident reopened (decision 261): its step 1 pages afresh, as a first step does,
   * with links from now
   */
  reopened?: boolean;
}

/** rotationRefOf: what the messages name: the rotation, or the policy of an incident without one. */
export function rotationRefOf(incident: LockedIncident): RotationRef {
  return incident.rotation
    ? { id: incident.rotation.id, name: incident.rotation.name }
    : { id: 0, name: incident.page.policy.name };
}

/** pageRefOf: the page a person event is about: its id and its urgency. */
export const pageRefOf = (page: Pick<IncidentRow, 'id' | 'urgency'>): PageRef => ({
  id: page.id,
  urgency: page.urgency as Urgency,
});

/** titleOf: an incident's title (its message when it has none of its own). */
export function titleOf(page: IncidentRow, deps: Pick<IncidentDeps, 'cipher'>): string {
  return (
    openIncidentText(deps.cipher, 'title', page.id, page.titleEnc) ??
    pageMessageOf(page, deps.cipher)
  );
}

/** progressOf: where an incident is on its policy. */
export const progressOf = (page: IncidentRow): EscalationProgress => ({
  stepIndex: page.stepIndex,
  loop: page.loop,
  stepStartedAt: page.stepStartedAt,
  stepSkipped: page.stepSkipped,
});

/** linkStartOf: when the current assignees' acknowledgement links start (the legacy step start). */
export const linkStartOf = (page: Pick<IncidentRow, 'createdAt' | 'escalatedAt'>) =>
  page.escalatedAt ?? page.createdAt;

/** pageFactsOf: the domain's view of an incident row as a page. */
export const pageFactsOf = (page: IncidentRow): PageFacts => ({
  status: page.status as PageStatus,
  urgency: page.urgency as Urgency,
  createdAt: page.createdAt,
  escalatedAt: page.escalatedAt,
});

/** managedFacts: who manages the incident's rotation (its creator and members). */
export const managedFacts = (
  rotation: IncidentRotation,
  members: readonly MemberRoles[],
): ManagedRotationFacts => ({
  createdById: rotation.createdById,
  memberUserIds: members.filter((m) => m.rotationId === rotation.id).map((m) => m.userId),
});

/**
 * emailOnly: whether the incident's urgency sends email alone (no SMS), so its pages carry no SMS
 * reply code; `announce` sends their rows by the same rule (URGENCY_POLICY).
 */
export const emailOnly = (urgency: string) =>
  URGENCY_POLICY[urgency as Urgency]?.emailOnly ?? false;

/** refuseClosed refuses an action on a page that is no longer open. */
export function refuseClosed(status: PageStatus): never {
  throw conflict(
    status === 'resolved' ? PAGE_MESSAGES.alreadyResolved : PAGE_MESSAGES.alreadyAcknowledged,
  );
}
