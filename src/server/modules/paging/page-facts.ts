import {
  PAGE_MESSAGES,
  type PageFacts,
  type PageStatus,
  URGENCY_POLICY,
  type Urgency,
} from '../../../shared/domain/paging';
import type { ManagedRotationFacts } from '../../../shared/domain/permissions-rotation';
import type { Clock } from '../../clock';
import type { Config } from '../../config';
import type { Database } from '../../db/client';
import { conflict } from '../../http/errors';
import type { NotifyDeps } from '../notifications/notify';
import type { MemberRoles, PageRow, PageWithRotation } from './paging-repository';

/**
 * What every paging operation shares: its dependencies, the domain facts of a page row, the members
 * an escalation chooses from, and the refusal of an action on a closed page.
 */

/** What the paging services need from the app. */
export interface PagingDeps extends NotifyDeps {
  database: Database;
  clock: Clock;
  /** and the handoff timings: who is backup after a handoff (the escalation world) */
  config?: NotifyDeps['config'] & Partial<Pick<Config, 'handoffTimings'>>;
}

/** facts: the domain's view of a page row. */
export const facts = (page: PageRow): PageFacts => ({
  status: page.status as PageStatus,
  urgency: page.urgency as Urgency,
  createdAt: page.createdAt,
  escalatedAt: page.escalatedAt,
});

/** managedFacts: who manages the page's rotation (its creator and members). */
export const managedFacts = (
  rotation: PageWithRotation['rotation'],
  members: readonly MemberRoles[],
): ManagedRotationFacts => ({
  createdById: rotation.createdById,
  memberUserIds: members.filter((m) => m.rotationId === rotation.id).map((m) => m.userId),
});

/** emailOnly: whether the page's urgency sends email alone (no SMS). */
export const emailOnly = (urgency: string) =>
  URGENCY_POLICY[urgency as Urgency]?.emailOnly ?? false;

/** refuseClosed refuses an action on a page that is no longer open. */
export function refuseClosed(status: PageStatus): never {
  throw conflict(
    status === 'resolved' ? PAGE_MESSAGES.alreadyResolved : PAGE_MESSAGES.alreadyAcknowledged,
  );
}
