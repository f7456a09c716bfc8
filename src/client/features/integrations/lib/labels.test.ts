import { INTEGRATION_MESSAGES } from '@shared/contracts/integrations';
import { expect, test } from 'vitest';
import { groupsAlerts, SIGNED_KEY_HINT, secretHintOf } from './labels';

test.each([
  [
    false,
    'Optional. Grafana signs each request with it (HMAC-SHA256); Baton then refuses unsigned ones.',
  ],
  [
    true,
    'This integration has a signing secret. Enter a new one to replace it; leave empty to keep it.',
  ],
])(
  'the secret field’s help (has a secret: %s) says what the secret does to the key (issue 30)',
  (has, said) => {
    const hint = secretHintOf(has);
    expect(hint.startsWith(said)).toBe(true);
    expect(hint.endsWith(SIGNED_KEY_HINT)).toBe(true);
    expect(SIGNED_KEY_HINT).toMatch(/only on the Grafana endpoint/);
    // What the form promises is what the endpoints answer.
    expect(INTEGRATION_MESSAGES.signedOnly).toMatch(/accepted only with Grafana’s signature/);
  },
);

test.each([
  ['alertmanager', true],
  ['grafana', true],
  ['pagerduty', false],
  ['opsgenie', false],
  ['email', false],
  ['generic', false],
] as const)('the Grouping choice applies to %s: %s', (source, applies) => {
  expect(groupsAlerts(source)).toBe(applies);
});
