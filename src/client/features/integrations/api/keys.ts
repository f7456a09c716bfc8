/*
 * The query keys of the integration reads. Every key starts with '/api/integrations', so
 * invalidating that prefix after a change reads the lists and the recent alerts again.
 */

/**
 * Where an integration's incidents go: a rotation (its policy) or an escalation policy; 'all' is
 * the Integrations screen's every one the viewer may see (decision 260).
 */
export type IntegrationScope = { rotationId: number } | { escalationPolicyId: number } | 'all';

export const integrationsQueryKey = ['/api/integrations'] as const;

/** scopeQuery returns the list's query string for a scope: 'rotationId=4', '' for all. */
export function scopeQuery(scope: IntegrationScope): string {
  if (scope === 'all') return '';
  return 'rotationId' in scope
    ? `rotationId=${scope.rotationId}`
    : `escalationPolicyId=${scope.escalationPolicyId}`;
}

/** One rotation's or one policy's integrations (GET /api/integrations?rotationId=…). */
export const integrationListQueryKey = (scope: IntegrationScope) =>
  ['/api/integrations', 'list', scopeQuery(scope)] as const;

/** An integration's recent alerts (GET /api/integrations/{id}/alerts), newest first. */
export const integrationAlertsQueryKey = (integrationId: number) =>
  ['/api/integrations', integrationId, 'alerts'] as const;

/** Whom "Send test alert" would page now (GET /api/integrations/{id}/test, decision 261). */
export const testAlertPreviewQueryKey = (integrationId: number) =>
  ['/api/integrations', integrationId, 'test'] as const;
