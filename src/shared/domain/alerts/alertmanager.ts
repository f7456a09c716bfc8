import type {
  AlertDetailRow,
  AlertmanagerAlert,
  AlertmanagerWebhook,
  GrafanaAlert,
  GrafanaWebhook,
} from '../../contracts/alerts';
import {
  type AlertEvent,
  alertEvent,
  cutValue,
  highest,
  linksOf,
  mapRows,
  type NormalizeOptions,
  realTime,
  severityOfLabel,
  valueText,
} from '.';

/**
 * Alertmanager's webhook (version 4) and Grafana's webhook contact point (version 1), which sends
 * the same group shape with a few fields of its own: one file, as the two share every rule.
 */

export type AlertGrouping = 'group' | 'fingerprint';

type AnyGroup = AlertmanagerWebhook | GrafanaWebhook;
type AnyAlert = AlertmanagerAlert | GrafanaAlert;
function earliest(times: (string | undefined)[]): string | undefined {
  const real = times.filter((t): t is string => t !== undefined).sort();
  return real[0];
}

function alertLinks(alert: AnyAlert): { href: string | undefined; text: string }[] {
  const g = alert as GrafanaAlert;
  return [
    { href: alert.generatorURL, text: 'Source' },
    { href: g.dashboardURL, text: 'Dashboard' },
    { href: g.panelURL, text: 'Panel' },
    { href: g.silenceURL, text: 'Silence' },
    { href: g.imageURL, text: 'Image' },
  ];
}

function alertRows(alert: AnyAlert, section: string): AlertDetailRow[] {
  const g = alert as GrafanaAlert;
  const values = g.values
    ? Object.keys(g.values)
        .sort()
        .map((label) => ({
          section: `${section}Values`,
          label,
          value: valueText(g.values?.[label] ?? null),
        }))
    : [];
  return [
    ...mapRows(`${section}Labels`, alert.labels),
    ...mapRows(`${section}Annotations`, alert.annotations),
    ...values,
  ];
}

function sourceOf(labels: Record<string, string>, fallback: string): string {
  return labels.instance || labels.job || labels.service || fallback;
}

function summaryOfAlert(alert: AnyAlert): string {
  return (
    alert.annotations.summary ||
    alert.labels.alertname ||
    Object.values(alert.labels).join(' ') ||
    'Alert'
  );
}

function vendorOf(body: AnyGroup): string {
  return body.version === '1' ? 'Grafana' : 'Alertmanager';
}

function groupEvent(body: AnyGroup, options: NormalizeOptions): AlertEvent {
  const vendor = vendorOf(body);
  const firing = body.alerts.filter((a) => a.status === 'firing');
  const counted = firing.length > 0 ? firing : body.alerts;
  const severity = highest(
    counted.map((a) => severityOfLabel(a.labels.severity ?? body.commonLabels.severity)),
  );
  const base =
    body.commonAnnotations.summary ||
    (body.alerts.length === 1 ? summaryOfAlert(body.alerts[0] as AnyAlert) : '') ||
    body.commonLabels.alertname ||
    Object.values(body.groupLabels).join(' ') ||
    `${vendor} alert`;
  const total = body.alerts.length + body.truncatedAlerts;
  const grafanaTitle = body.version === '1' ? body.title : undefined;
  const rawSummary = grafanaTitle || (total > 1 ? `${base} (${total} alerts)` : base);
  const perAlert =
    body.alerts.length === 1
      ? alertRows(body.alerts[0] as AnyAlert, '')
      : [
          ...mapRows('Common labels', body.commonLabels),
          ...mapRows('Common annotations', body.commonAnnotations),
          ...body.alerts.flatMap((a) =>
            alertRows(a, `Alert ${a.fingerprint.slice(0, 8)} (${a.status}) · `),
          ),
        ];
  const extra: AlertDetailRow[] = [];
  if (body.truncatedAlerts > 0) {
    extra.push({ section: vendor, label: 'truncated alerts', value: String(body.truncatedAlerts) });
  }
  if (body.version === '1' && body.message) {
    extra.push({ section: vendor, label: 'message', value: cutValue(body.message) });
  }
  return alertEvent(
    {
      action: body.status === 'firing' ? 'trigger' : 'resolve',
      dedupKey: body.groupKey,
      rawSummary,
      source: sourceOf(body.commonLabels, vendor),
      severity,
      details: [...extra, ...perAlert],
      links: linksOf([
        ...body.alerts.flatMap(alertLinks),
        { href: body.externalURL, text: vendor },
      ]),
      occurredAt:
        body.status === 'firing'
          ? earliest(counted.map((a) => realTime(a.startsAt)))
          : earliest(body.alerts.map((a) => realTime(a.endsAt))),
    },
    options,
  );
}

function fingerprintEvent(body: AnyGroup, alert: AnyAlert, options: NormalizeOptions): AlertEvent {
  const vendor = vendorOf(body);
  return alertEvent(
    {
      action: alert.status === 'firing' ? 'trigger' : 'resolve',
      dedupKey: alert.fingerprint,
      rawSummary: summaryOfAlert(alert),
      source: sourceOf(alert.labels, vendor),
      severity: severityOfLabel(alert.labels.severity),
      details: alertRows(alert, ''),
      links: linksOf([...alertLinks(alert), { href: body.externalURL, text: vendor }]),
      occurredAt: realTime(alert.status === 'firing' ? alert.startsAt : alert.endsAt),
    },
    options,
  );
}

/**
 * normalizeAlertGroup turns an Alertmanager or Grafana message into events: by default one for the
 * group key (firing → trigger, resolved → resolve, as Alertmanager's own PagerDuty receiver does),
 * or one per alert fingerprint when the integration asks. Never keyed by summary, which would
 * merge unrelated alerts. The same group sent again gives the same events.
 */
export function normalizeAlertGroup(
  body: AnyGroup,
  grouping: AlertGrouping = 'group',
  options: NormalizeOptions = {},
): AlertEvent[] {
  if (grouping === 'group') return [groupEvent(body, options)];
  const byFingerprint = new Map<string, AnyAlert>();
  for (const alert of body.alerts) byFingerprint.set(alert.fingerprint, alert);
  return [...byFingerprint.values()].map((a) => fingerprintEvent(body, a, options));
}
