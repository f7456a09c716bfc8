import type { z } from 'zod';
import type { AlertDetailRow, PagerDutyEvent, PagerDutyInvalid } from '../../contracts/alerts';
import {
  type AlertEvent,
  alertEvent,
  cutValue,
  dedupKeyOr,
  flattenDetails,
  issueMessages,
  linksOf,
  type NormalizeOptions,
  severityOfPagerDuty,
} from '.';

/** PagerDuty Events API v2 (decision 208): one event per request, its dedup key PagerDuty's. */

/**
 * normalizePagerDuty turns a PagerDuty event into Baton's. A trigger without dedup_key takes
 * `generatedDedupKey` (the caller makes it, and returns it in the answer). Acknowledge and resolve
 * carry no payload worth reading: their summary, source and severity are placeholders the engine
 * does not use to open anything.
 */
export function normalizePagerDuty(
  body: PagerDutyEvent,
  generatedDedupKey: string,
  options: NormalizeOptions = {},
): AlertEvent {
  if (body.event_action !== 'trigger') {
    return alertEvent(
      {
        action: body.event_action,
        dedupKey: body.dedup_key,
        rawSummary:
          body.event_action === 'resolve' ? 'Resolved by source' : 'Acknowledged by source',
        source: body.client ?? 'PagerDuty Events API',
        severity: 'P3',
        details: [],
        links: [],
      },
      options,
    );
  }
  const p = body.payload;
  const fields: AlertDetailRow[] = [];
  for (const [label, value] of [
    ['component', p.component],
    ['group', p.group],
    ['class', p.class],
    ['client', body.client],
  ] as const) {
    if (value) fields.push({ section: 'Event', label, value: cutValue(value) });
  }
  const severity = severityOfPagerDuty(p.severity);
  return alertEvent(
    {
      action: 'trigger',
      dedupKey: dedupKeyOr(body.dedup_key, generatedDedupKey),
      rawSummary: p.summary,
      source: p.source,
      severity,
      details: [
        ...fields,
        ...(p.custom_details === undefined ? [] : flattenDetails('Details', p.custom_details)),
      ],
      links: linksOf([
        { href: body.client_url, text: body.client ?? 'Source' },
        ...(body.links ?? []).map((l) => ({ href: l.href, text: l.text ?? '' })),
        ...(body.images ?? []).map((i) => ({ href: i.href, text: i.alt ?? 'Image' })),
      ]),
      occurredAt: p.timestamp === undefined ? undefined : new Date(p.timestamp).toISOString(),
    },
    options,
  );
}

/** PagerDuty's 400 answer: `{status: 'invalid event', message, errors}` naming each bad field. */
export function pagerDutyInvalid(error: z.ZodError): PagerDutyInvalid {
  return {
    status: 'invalid event',
    message: 'Event object is invalid',
    errors: issueMessages(error),
  };
}
