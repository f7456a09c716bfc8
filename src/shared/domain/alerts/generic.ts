import type { GenericAlert } from '../../contracts/alerts';
import type { Severity } from '../../contracts/incidents';
import { type AlertEvent, alertEvent, cutValue, dedupKeyOr, type NormalizeOptions } from '.';

/** Generic: JSON or a form, for scripts and cron jobs. */

/** normalizeGeneric: `action=close` resolves `dedup`; anything else triggers (no dedup: generated). */
export function normalizeGeneric(
  body: GenericAlert,
  generatedDedupKey: string,
  options: NormalizeOptions = {},
): AlertEvent {
  const closing = body.action === 'close';
  const severity: Severity = 'P2';
  return alertEvent(
    {
      action: closing ? 'resolve' : 'trigger',
      dedupKey: dedupKeyOr(body.dedup, generatedDedupKey),
      rawSummary: body.summary ?? (closing ? 'Resolved by source' : 'Alert'),
      source: 'Generic API',
      severity,
      details: body.details
        ? [{ section: 'Details', label: 'details', value: cutValue(body.details) }]
        : [],
      links: [],
    },
    options,
  );
}
