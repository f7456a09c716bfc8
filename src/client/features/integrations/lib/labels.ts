import type {
  ALERT_GROUPINGS,
  INTEGRATION_URGENCIES,
  IntegrationSource,
} from '@shared/contracts/integrations';

/** How the dialogs name an integration's choices. */
export const GROUPING_LABELS: Record<(typeof ALERT_GROUPINGS)[number], string> = {
  group: 'One incident per group',
  fingerprint: 'One incident per alert',
};

export const GROUPING_HINTS: Record<(typeof ALERT_GROUPINGS)[number], string> = {
  group:
    'For Alertmanager and Grafana: the alerts they group together (by group_by) are one incident, as their PagerDuty receiver does.',
  fingerprint:
    'For Alertmanager and Grafana: every alert (by its fingerprint) is an incident of its own.',
};

export const URGENCY_LABELS: Record<(typeof INTEGRATION_URGENCIES)[number], string> = {
  severity: 'By severity',
  high: 'Always high',
  low: 'Always low',
};

export const URGENCY_HINTS: Record<(typeof INTEGRATION_URGENCIES)[number], string> = {
  severity: 'P1 and P2 incidents are high urgency, P3 low (email only).',
  high: 'Every incident notifies by each person’s preference.',
  low: 'Every incident notifies by email only.',
};

/** What a signing secret does to the key (issue 30, decision 235). */
export const SIGNED_KEY_HINT =
  'With a secret, the key works only on the Grafana endpoint: the other endpoints and alert email refuse it.';

/**
 * secretHintOf returns the help text beside the Grafana signing secret field: what the secret
 * does, for an integration that has one or not, and what it does to the key.
 */
export function secretHintOf(hasSigningSecret: boolean): string {
  return hasSigningSecret
    ? `This integration has a signing secret. Enter a new one to replace it; leave empty to keep it. ${SIGNED_KEY_HINT}`
    : `Optional. Grafana signs each request with it (HMAC-SHA256); Baton then refuses unsigned ones. ${SIGNED_KEY_HINT}`;
}

/** What each source is, under the dialog's Source choice (decision 260). */
export const SOURCE_HINTS: Record<IntegrationSource, string> = {
  alertmanager: 'Prometheus Alertmanager: a webhook receiver, or its PagerDuty or Opsgenie one.',
  grafana: 'Grafana alerting: a webhook contact point, optionally signed.',
  pagerduty: 'Any tool that speaks the PagerDuty Events API v2, with the key as routing_key.',
  opsgenie: 'Any tool that speaks the Opsgenie Alert API, with the key as GenieKey.',
  email: 'Tools that can only send mail: the key is the address’s local part.',
  generic: 'Scripts, cron jobs and uptime checkers: a simple JSON or form POST.',
};

/** Whether a source sends messages that group alerts, so the Grouping choice applies. */
export const groupsAlerts = (source: IntegrationSource) =>
  source === 'alertmanager' || source === 'grafana';
