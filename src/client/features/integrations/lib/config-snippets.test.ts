import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { IntegrationEndpoints, IntegrationSource } from '@shared/contracts/integrations';
import { afterAll, describe, expect, test } from 'vitest';
import {
  configSnippets,
  GRAFANA_SIGNATURE_HEADER,
  genericUrl,
  KEY_PLACEHOLDER,
  opsgenieBase,
  receiverBase,
  snippetsBySource,
  sourceUrl,
} from './config-snippets';

const KEY = '0123456789abcdef0123456789abcdef';
const endpoints: IntegrationEndpoints = {
  pagerduty: 'https://baton.example.com/api/alerts/pagerduty/v2/enqueue',
  opsgenie: 'https://baton.example.com/api/alerts/opsgenie/',
  alertmanager: 'https://baton.example.com/api/alerts/alertmanager',
  grafana: 'https://baton.example.com/api/alerts/grafana',
  generic: 'https://baton.example.com/api/alerts/generic',
  emailDomain: 'alerts.example.com',
  emailPort: 2525,
};
const integration = { name: 'Checkout API: Prometheus', endpoints, hasSigningSecret: false };

const textOf = (key: string | null, id: string, over = {}) =>
  configSnippets({ ...integration, ...over }, key).find((s) => s.id === id)?.text ?? '';

describe('configSnippets', () => {
  test.each([
    ['Checkout API: Prometheus', 'baton-checkout-api-prometheus'],
    ['  Ünïcode  & co ', 'baton-unicode-co'],
    ['!!!', 'baton'],
    ['x'.repeat(80), `baton-${'x'.repeat(40)}`],
  ])('receiverBase(%j) is %j', (name, expected) => {
    expect(receiverBase(name)).toBe(expected);
  });

  test('the key fills every snippet while shown; the placeholder stands in after', () => {
    const shown = configSnippets(integration, KEY);
    const later = configSnippets(integration, null);
    expect(shown.map((s) => s.id)).toEqual([
      'alertmanager-webhook',
      'alertmanager-pagerduty',
      'alertmanager-opsgenie',
      'grafana',
      'curl-pagerduty',
      'curl-generic',
      'email',
    ]);
    for (const [i, snippet] of shown.entries()) {
      expect(snippet.text, snippet.id).toContain(KEY);
      expect(snippet.text, snippet.id).not.toContain(KEY_PLACEHOLDER);
      expect(later[i].text, snippet.id).toContain(KEY_PLACEHOLDER);
      expect(later[i].text, snippet.id).not.toContain(KEY);
    }
  });

  test('each receiver names its endpoint and puts the key where the sender reads it', () => {
    expect(textOf(KEY, 'alertmanager-webhook')).toContain(
      `url: '${endpoints.alertmanager}'\n        send_resolved: true\n        http_config:\n          authorization:\n            type: Bearer\n            credentials: '${KEY}'`,
    );
    expect(textOf(KEY, 'alertmanager-pagerduty')).toContain(
      `url: '${endpoints.pagerduty}'\n        routing_key: '${KEY}'`,
    );
    expect(textOf(KEY, 'alertmanager-opsgenie')).toContain(
      `api_url: '${endpoints.opsgenie}'\n        api_key: '${KEY}'`,
    );
    expect(textOf(KEY, 'grafana')).toContain(`Authorization Header - Credentials: ${KEY}`);
    expect(textOf(KEY, 'curl-pagerduty')).toContain(`"routing_key": "${KEY}"`);
    expect(textOf(KEY, 'curl-generic')).toContain(`'${endpoints.generic}?token=${KEY}'`);
    expect(textOf(KEY, 'email')).toBe(`${KEY}@alerts.example.com`);
  });

  test('the HMAC headers show only for an integration with a signing secret', () => {
    expect(textOf(KEY, 'grafana')).not.toContain(GRAFANA_SIGNATURE_HEADER);
    expect(textOf(KEY, 'grafana', { hasSigningSecret: true })).toContain(
      `HMAC Signature - Header: ${GRAFANA_SIGNATURE_HEADER}`,
    );
  });

  test('no email snippet while Baton takes no email', () => {
    const ids = configSnippets(
      { ...integration, endpoints: { ...endpoints, emailDomain: null } },
      KEY,
    ).map((s) => s.id);
    expect(ids).not.toContain('email');
  });

  test('the Opsgenie base ends with / (Alertmanager appends v2/alerts); token joins a query', () => {
    expect(opsgenieBase({ opsgenie: 'https://b.example/api/alerts/opsgenie' })).toBe(
      'https://b.example/api/alerts/opsgenie/',
    );
    expect(opsgenieBase({ opsgenie: 'https://b.example/api/alerts/opsgenie/' })).toBe(
      'https://b.example/api/alerts/opsgenie/',
    );
    expect(genericUrl({ generic: 'https://b.example/g?x=1' }, 'k')).toBe(
      'https://b.example/g?x=1&token=k',
    );
  });
});

// The real check: Alertmanager 0.25's own amtool (Debian's prometheus-alertmanager, which .ci/run
// installs) reads a configuration made of the three receivers, as they are pasted.
describe('the Alertmanager receivers pass amtool check-config', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'baton-snippets-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  test.each([
    ['with the key', KEY],
    ['with the placeholder', null],
  ])('%s', (_label, key) => {
    const receivers = configSnippets(integration, key)
      .filter((s) => s.id.startsWith('alertmanager-'))
      .map((s) => s.text.replace(/^receivers:\n/, ''));
    const file = path.join(dir, `alertmanager-${key ? 'key' : 'placeholder'}.yml`);
    writeFileSync(
      file,
      [
        'route:',
        `  receiver: ${receiverBase(integration.name)}-webhook`,
        '  routes:',
        `    - receiver: ${receiverBase(integration.name)}-pagerduty`,
        '      continue: true',
        `    - receiver: ${receiverBase(integration.name)}-opsgenie`,
        'receivers:',
        ...receivers,
        '',
      ].join('\n'),
    );
    const out = execFileSync('amtool', ['check-config', file], { encoding: 'utf8' });
    expect(out).toContain('SUCCESS');
    expect(out).toContain(' - 3 receivers');
  });
});

describe('snippetsBySource', () => {
  const all = configSnippets(integration, null);
  test.each<[IntegrationSource, string[]]>([
    ['alertmanager', ['alertmanager-webhook', 'alertmanager-pagerduty', 'alertmanager-opsgenie']],
    ['grafana', ['grafana']],
    ['pagerduty', ['curl-pagerduty', 'alertmanager-pagerduty']],
    ['opsgenie', ['alertmanager-opsgenie']],
    ['email', ['email']],
    ['generic', ['curl-generic']],
  ])('%s: its own first, every other format after', (source, own) => {
    const split = snippetsBySource(all, source);
    expect(split.own.map((s) => s.id)).toEqual(own);
    expect([...split.own, ...split.others].map((s) => s.id).sort()).toEqual(
      all.map((s) => s.id).sort(),
    );
  });

  test('email while Baton takes none: nothing of its own, everything among the others', () => {
    const off = configSnippets(
      { ...integration, endpoints: { ...endpoints, emailDomain: null } },
      null,
    );
    expect(snippetsBySource(off, 'email')).toEqual({ own: [], others: off });
  });
});

describe('sourceUrl', () => {
  test.each<[IntegrationSource, string, string]>([
    ['alertmanager', 'URL (Alertmanager webhook)', endpoints.alertmanager],
    ['grafana', 'URL (Grafana webhook)', endpoints.grafana],
    ['pagerduty', 'URL (PagerDuty Events API v2)', endpoints.pagerduty],
    ['opsgenie', 'URL (Opsgenie Alert API)', endpoints.opsgenie],
    ['email', 'Address', `${KEY}@alerts.example.com`],
    ['generic', 'URL (generic)', `${endpoints.generic}?token=${KEY}`],
  ])('%s: %s', (source, label, value) => {
    expect(sourceUrl(source, endpoints, KEY)).toEqual({ label, value });
  });

  test('email while Baton takes none: the generic URL, saying why', () => {
    expect(sourceUrl('email', { ...endpoints, emailDomain: null }, KEY)).toEqual({
      label: 'URL (generic, email is off)',
      value: `${endpoints.generic}?token=${KEY}`,
    });
  });
});
