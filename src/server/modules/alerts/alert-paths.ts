import type { FastifyRequest } from 'fastify';
import type { AlertFormat } from '../../../shared/contracts/integrations';

/** The inbound alert endpoints (issue 17): fixed, so a tool's configuration is written once. */
export const ALERT_PATHS = {
  pagerduty: '/api/alerts/pagerduty/v2/enqueue',
  opsgenieCreate: '/api/alerts/opsgenie/v2/alerts',
  opsgenieClose: '/api/alerts/opsgenie/v2/alerts/:identifier/close',
  opsgenieAcknowledge: '/api/alerts/opsgenie/v2/alerts/:identifier/acknowledge',
  alertmanager: '/api/alerts/alertmanager',
  grafana: '/api/alerts/grafana',
  generic: '/api/alerts/generic',
} as const;

/** Wire: the formats that arrive over HTTP, one or more paths each. */
export type Wire = Exclude<AlertFormat, 'email' | 'test'>;

const WIRE_OF_PATH: Record<string, Wire> = {
  [ALERT_PATHS.pagerduty]: 'pagerduty',
  [ALERT_PATHS.opsgenieCreate]: 'opsgenie',
  [ALERT_PATHS.opsgenieClose]: 'opsgenie',
  [ALERT_PATHS.opsgenieAcknowledge]: 'opsgenie',
  [ALERT_PATHS.alertmanager]: 'alertmanager',
  [ALERT_PATHS.grafana]: 'grafana',
  [ALERT_PATHS.generic]: 'generic',
};

/** wireOf: the format of the route a request came to (generic when none matched). */
export const wireOf = (req: FastifyRequest): Wire =>
  WIRE_OF_PATH[req.routeOptions.url ?? ''] ?? 'generic';
