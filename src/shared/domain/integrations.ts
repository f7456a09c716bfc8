import type { IntegrationEndpoints } from '../contracts/integrations';
import {
  canManageRotation,
  canReadPolicy,
  type ManagedRotationFacts,
  managesPolicy,
  managesRotation,
  type PolicyFacts,
} from './permissions-rotation';
import { type Actor, hasRole } from './roles';

/**
 * Integrations (issue 17, decision 210): who may see and manage them, and where each inbound
 * format is sent. Pure: the facts are read by the caller.
 */

/**
 * What an integration's incidents follow, as the permission rules see it: its rotation (creator
 * and members), or its escalation policy (creator and the rotations that follow it).
 */
export type IntegrationFacts =
  | { rotation: ManagedRotationFacts; policy?: undefined }
  | { rotation?: undefined; policy: PolicyFacts };

/**
 * canViewIntegration tells whether the actor may see an integration (never its key):
 * administrators, managers and incident managers any; anyone else those of rotations they are
 * members of, a policy's integration through the rotations that follow the policy.
 */
export function canViewIntegration(actor: Actor, facts: IntegrationFacts): boolean {
  if (hasRole(actor.roles, 'manager') || hasRole(actor.roles, 'incident_manager')) return true;
  if (facts.rotation) return facts.rotation.memberUserIds.includes(actor.id);
  return canReadPolicy(actor, facts.policy);
}

/**
 * managesIntegration tells whether the actor may create, change, regenerate the key of, test or
 * delete an integration: administrators any; managers those of rotations they manage
 * (managesRotation) or of escalation policies they manage (managesPolicy); nobody else.
 */
export function managesIntegration(actor: Actor, facts: IntegrationFacts): boolean {
  if (hasRole(actor.roles, 'admin')) return true;
  if (!hasRole(actor.roles, 'manager')) return false;
  if (facts.rotation) return managesRotation(actor, facts.rotation);
  return managesPolicy(actor, facts.policy);
}

/** mayManageSomeIntegration tells whether the actor's roles let them manage any integration. */
export function mayManageSomeIntegration(actor: Pick<Actor, 'roles'>): boolean {
  return hasRole(actor.roles, 'manager');
}

/** What a destination belongs to, with the facts that decide who may see and manage it. */
export type DestinationFacts =
  | { owner: 'rotation'; rotation: ManagedRotationFacts }
  | { owner: 'policy'; policy: PolicyFacts }
  | { owner: 'integration'; integration: IntegrationFacts };

/**
 * canViewDestination tells whether the actor may see a destination (never its secrets): a
 * rotation's whoever may see the rotation's integrations, a policy's whoever may read the policy,
 * an integration's whoever may see the integration.
 */
export function canViewDestination(actor: Actor, facts: DestinationFacts): boolean {
  if (facts.owner === 'rotation') return canViewIntegration(actor, { rotation: facts.rotation });
  if (facts.owner === 'policy') return canReadPolicy(actor, facts.policy);
  return canViewIntegration(actor, facts.integration);
}

/**
 * managesDestination tells whether the actor may add, change, test or delete a destination: a
 * rotation's its managers and administrators (canManageRotation), a policy's whoever may edit the
 * policy (managesPolicy), an integration's whoever manages the integration (managesIntegration).
 */
export function managesDestination(actor: Actor, facts: DestinationFacts): boolean {
  if (facts.owner === 'rotation') return canManageRotation(actor, facts.rotation);
  if (facts.owner === 'policy') return managesPolicy(actor, facts.policy);
  return managesIntegration(actor, facts.integration);
}

/** mayManageSomeDestination tells whether the actor's roles let them manage any destination. */
export function mayManageSomeDestination(actor: Pick<Actor, 'roles'>): boolean {
  return hasRole(actor.roles, 'manager');
}

/**
 * integrationEndpoints returns where each inbound format is sent for a Baton at `baseUrl` (its
 * public URL, no trailing slash): the paths the issue fixes. The email address's domain is the
 * public URL's host name while email intake listens (`smtpPort` set), else null.
 */
export function integrationEndpoints(
  baseUrl: string,
  smtpPort: number | null,
): IntegrationEndpoints {
  const base = baseUrl.replace(/\/+$/, '');
  return {
    pagerduty: `${base}/api/alerts/pagerduty/v2/enqueue`,
    opsgenie: `${base}/api/alerts/opsgenie/`,
    alertmanager: `${base}/api/alerts/alertmanager`,
    grafana: `${base}/api/alerts/grafana`,
    generic: `${base}/api/alerts/generic`,
    emailDomain: smtpPort === null ? null : hostNameOf(base),
    emailPort: smtpPort,
  };
}

function hostNameOf(url: string): string | null {
  try {
    return new URL(url).hostname || null;
  } catch {
    return null;
  }
}
