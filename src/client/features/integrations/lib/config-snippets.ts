import type {
  Integration,
  IntegrationEndpoints,
  IntegrationSource,
} from '@shared/contracts/integrations';

/*
 * The ready-to-paste configurations of an integration (issue 17, decision 214): each sender's own
 * words, with the key filled in while it is shown once and KEY_PLACEHOLDER after. The Alertmanager
 * ones are receivers as Alertmanager 0.25 reads them (checked with its `amtool check-config` in
 * config-snippets.test.ts); the rest are what the sender's screen or shell takes.
 */

/** What stands for the key once it is no longer shown. */
export const KEY_PLACEHOLDER = '<KEY>';

/** Grafana's signature headers, as Baton checks them when the integration has a signing secret. */
export const GRAFANA_SIGNATURE_HEADER = 'X-Grafana-Alerting-Signature';
export const GRAFANA_TIMESTAMP_HEADER = 'X-Grafana-Alerting-Timestamp';

export type SnippetId =
  | 'alertmanager-webhook'
  | 'alertmanager-pagerduty'
  | 'alertmanager-opsgenie'
  | 'grafana'
  | 'curl-pagerduty'
  | 'curl-generic'
  | 'email';

export interface ConfigSnippet {
  id: SnippetId;
  title: string;
  /** one sentence: where it goes */
  description: string;
  text: string;
}

/** receiverBase returns an Alertmanager receiver name for the integration: 'baton-checkout-api'. */
export function receiverBase(name: string): string {
  const slug = name
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 40)
    .replace(/-+$/, '');
  return slug ? `baton-${slug}` : 'baton';
}

// A YAML single-quoted scalar: nothing in it is special but the quote, which is doubled.
const yamlString = (value: string) => `'${value.replaceAll("'", "''")}'`;
// A shell single-quoted word: a quote ends it, is escaped, and starts it again.
const shellWord = (value: string) => `'${value.replaceAll("'", `'\\''`)}'`;

/** opsgenieBase returns the Opsgenie API base with its trailing '/': Alertmanager appends 'v2/alerts'. */
export function opsgenieBase(endpoints: Pick<IntegrationEndpoints, 'opsgenie'>): string {
  return endpoints.opsgenie.endsWith('/') ? endpoints.opsgenie : `${endpoints.opsgenie}/`;
}

/** genericUrl returns the generic endpoint with the key as its `token` parameter. */
export function genericUrl(endpoints: Pick<IntegrationEndpoints, 'generic'>, key: string): string {
  const separator = endpoints.generic.includes('?') ? '&' : '?';
  return `${endpoints.generic}${separator}token=${key}`;
}

/**
 * configSnippets returns the integration's configurations, in the order the screen shows them:
 * the three Alertmanager receivers, Grafana's contact point, curl in PagerDuty's format and the
 * generic one, and the email address when Baton takes email. `key` is the key while it is shown,
 * null after (then KEY_PLACEHOLDER stands in).
 */
export function configSnippets(
  integration: Pick<Integration, 'name' | 'endpoints' | 'hasSigningSecret'>,
  key: string | null,
): ConfigSnippet[] {
  const k = key ?? KEY_PLACEHOLDER;
  const { endpoints } = integration;
  const base = receiverBase(integration.name);
  const snippets: ConfigSnippet[] = [
    {
      id: 'alertmanager-webhook',
      title: 'Alertmanager: webhook receiver',
      description:
        'Add under receivers: in alertmanager.yml and route alerts to it. Baton keeps every field of Alertmanager’s message.',
      text: [
        'receivers:',
        `  - name: ${base}-webhook`,
        '    webhook_configs:',
        `      - url: ${yamlString(endpoints.alertmanager)}`,
        '        send_resolved: true',
        '        http_config:',
        '          authorization:',
        '            type: Bearer',
        `            credentials: ${yamlString(k)}`,
      ].join('\n'),
    },
    {
      id: 'alertmanager-pagerduty',
      title: 'Alertmanager: PagerDuty receiver',
      description:
        'An existing pagerduty_configs receiver needs only the url and the routing key changed.',
      text: [
        'receivers:',
        `  - name: ${base}-pagerduty`,
        '    pagerduty_configs:',
        `      - url: ${yamlString(endpoints.pagerduty)}`,
        `        routing_key: ${yamlString(k)}`,
        '        send_resolved: true',
        '        # Alertmanager sends severity "error" (P2) unless you set severity to',
        '        # critical, error, warning or info.',
      ].join('\n'),
    },
    {
      id: 'alertmanager-opsgenie',
      title: 'Alertmanager: Opsgenie receiver',
      description:
        'An existing opsgenie_configs receiver needs only the api_url and the api_key changed.',
      text: [
        'receivers:',
        `  - name: ${base}-opsgenie`,
        '    opsgenie_configs:',
        `      - api_url: ${yamlString(opsgenieBase(endpoints))}`,
        `        api_key: ${yamlString(k)}`,
        '        send_resolved: true',
      ].join('\n'),
    },
    {
      id: 'grafana',
      title: 'Grafana: webhook contact point',
      description: integration.hasSigningSecret
        ? 'In Alerting → Contact points, add a Webhook integration with these settings. This integration has a signing secret: Baton refuses requests Grafana did not sign with it, or signed more than 5 minutes ago.'
        : 'In Alerting → Contact points, add a Webhook integration with these settings. To have Grafana sign its requests (HMAC-SHA256), give this integration a signing secret and set the same secret under HMAC Signature.',
      text: [
        'Integration: Webhook',
        `URL: ${endpoints.grafana}`,
        'HTTP Method: POST',
        'Authorization Header - Scheme: Bearer',
        `Authorization Header - Credentials: ${k}`,
        ...(integration.hasSigningSecret
          ? [
              'HMAC Signature - Secret: the signing secret you gave this integration',
              `HMAC Signature - Header: ${GRAFANA_SIGNATURE_HEADER}`,
              `HMAC Signature - Timestamp Header: ${GRAFANA_TIMESTAMP_HEADER}`,
            ]
          : []),
      ].join('\n'),
    },
    {
      id: 'curl-pagerduty',
      title: 'curl: PagerDuty Events v2 format',
      description:
        'Any tool that speaks PagerDuty’s Events API v2 takes this URL and the key as its routing key.',
      text: [
        `curl -X POST ${shellWord(endpoints.pagerduty)} \\`,
        `  -H 'Content-Type: application/json' \\`,
        `  -d '{"routing_key": "${k}", "event_action": "trigger", "dedup_key": "disk-db1",`,
        `       "payload": {"summary": "Disk full on db1", "source": "db1", "severity": "critical"}}'`,
      ].join('\n'),
    },
    {
      id: 'curl-generic',
      title: 'curl: generic (scripts and cron jobs)',
      description:
        'A form or JSON body: summary, details, dedup, and action=close to resolve what dedup names.',
      text: [
        `curl -d summary='Nightly backup failed' -d dedup=backup ${shellWord(genericUrl(endpoints, k))}`,
        `curl -d action=close -d dedup=backup ${shellWord(genericUrl(endpoints, k))}`,
      ].join('\n'),
    },
  ];
  if (endpoints.emailDomain !== null) {
    snippets.push({
      id: 'email',
      title: 'Email',
      description:
        'For tools that can only send mail: the subject is the summary, the text body the details.',
      text: `${k}@${endpoints.emailDomain}`,
    });
  }
  return snippets;
}

/** The configurations each source is set up with, in the order they help most (decision 260). */
const SOURCE_SNIPPETS: Record<IntegrationSource, readonly SnippetId[]> = {
  alertmanager: ['alertmanager-webhook', 'alertmanager-pagerduty', 'alertmanager-opsgenie'],
  grafana: ['grafana'],
  pagerduty: ['curl-pagerduty', 'alertmanager-pagerduty'],
  opsgenie: ['alertmanager-opsgenie'],
  email: ['email'],
  generic: ['curl-generic'],
};

/**
 * snippetsBySource splits the configurations into those of the integration's source, first, and
 * the other formats its key also takes. A source with nothing to show (email while Baton takes
 * no email) leaves every configuration among the others.
 */
export function snippetsBySource(
  snippets: readonly ConfigSnippet[],
  source: IntegrationSource,
): { own: ConfigSnippet[]; others: ConfigSnippet[] } {
  const ids = SOURCE_SNIPPETS[source];
  const own = ids.flatMap((id) => snippets.filter((s) => s.id === id));
  return { own, others: snippets.filter((s) => !own.includes(s)) };
}

/**
 * sourceUrl returns where the source sends, as the key panel shows it beside the key: its endpoint,
 * the generic one with the key as `token` for generic, and the address for email while Baton
 * takes email (the generic URL when it does not).
 */
export function sourceUrl(
  source: IntegrationSource,
  endpoints: IntegrationEndpoints,
  key: string,
): { label: string; value: string } {
  switch (source) {
    case 'alertmanager':
      return { label: 'URL (Alertmanager webhook)', value: endpoints.alertmanager };
    case 'grafana':
      return { label: 'URL (Grafana webhook)', value: endpoints.grafana };
    case 'pagerduty':
      return { label: 'URL (PagerDuty Events API v2)', value: endpoints.pagerduty };
    case 'opsgenie':
      return { label: 'URL (Opsgenie Alert API)', value: opsgenieBase(endpoints) };
    case 'email':
      if (endpoints.emailDomain !== null) {
        return { label: 'Address', value: `${key}@${endpoints.emailDomain}` };
      }
      return { label: 'URL (generic, email is off)', value: genericUrl(endpoints, key) };
    case 'generic':
      return { label: 'URL (generic)', value: genericUrl(endpoints, key) };
  }
}
