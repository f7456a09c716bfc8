import { describe, expect, test } from 'vitest';
import { GenericAlertSchema } from '../../contracts/alerts';
import { issueMessages } from '.';
import { normalizeGeneric } from './generic';

const GENERATED = 'generated-key-0001';

describe('Generic', () => {
  test('summary and details trigger; form fields are the same strings', () => {
    const e = normalizeGeneric(
      GenericAlertSchema.parse(
        Object.fromEntries(new URLSearchParams('summary=Backup+failed&details=exit+2')),
      ),
      GENERATED,
    );
    expect(e).toMatchObject({
      action: 'trigger',
      dedupKey: GENERATED,
      summary: 'Backup failed',
      severity: 'P2',
      urgency: 'high',
      details: [{ section: 'Details', label: 'details', value: 'exit 2' }],
    });
  });

  test('action=close resolves its dedup key', () => {
    expect(
      normalizeGeneric(GenericAlertSchema.parse({ action: 'close', dedup: 'backup' }), GENERATED),
    ).toMatchObject({
      action: 'resolve',
      dedupKey: 'backup',
    });
  });

  test.each([
    ['no summary', {}, 'summary is required'],
    ['close without dedup', { action: 'close' }, 'dedup is required to close an alert'],
    ['close with dedup=', { action: 'close', dedup: '' }, 'dedup is required to close an alert'],
    ['an unknown action', { summary: 's', action: 'delete' }, 'action must be close'],
    ['a long dedup', { summary: 's', dedup: 'd'.repeat(256) }, 'dedup must be at most 255'],
  ])('%s is refused naming the field', (_name, body, message) => {
    const result = GenericAlertSchema.safeParse(body);
    expect(result.success).toBe(false);
    if (!result.success) expect(issueMessages(result.error).join('\n')).toContain(message);
  });
});
