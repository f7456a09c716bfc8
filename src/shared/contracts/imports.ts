import { z } from 'zod';
import { text } from './primitives';

/**
 * Imports (issue 34): moving a team in from PagerDuty, Opsgenie, Grafana OnCall, a calendar file
 * or a spreadsheet. `POST /api/imports` reads the source and answers a plan (nothing written but
 * the plan); `POST /api/imports/{id}/apply` applies it in one transaction; `GET
 * /api/imports/{id}/verify` compares who Baton puts on call over the plan's window with the
 * source's own rendering. Administrators only; the screen (Settings → Import) and `npm run import`
 * use the same three calls.
 */

/** The sources an import reads. */
export const IMPORT_SOURCES = ['pagerduty', 'opsgenie', 'grafana-oncall', 'ics', 'csv'] as const;
export type ImportSourceName = (typeof IMPORT_SOURCES)[number];

export const IMPORT_SOURCE_LABELS: Record<ImportSourceName, string> = {
  pagerduty: 'PagerDuty',
  opsgenie: 'Opsgenie',
  'grafana-oncall': 'Grafana OnCall',
  ics: 'Calendar file (ICS)',
  csv: 'Spreadsheet (CSV)',
};

/** Sources read through an API with a key; the others are a file's content. */
export const API_IMPORT_SOURCES = ['pagerduty', 'opsgenie', 'grafana-oncall'] as const;

/** How far ahead an import copies overrides and renders who is on call: 90 days. */
export const IMPORT_WINDOW_DAYS = 90;

/** The largest file an import reads (a calendar or a spreadsheet): 5 MB of text. */
export const IMPORT_CONTENT_MAX = 5 * 1024 * 1024;

export const IMPORT_MESSAGES = {
  source: 'Choose a source: pagerduty, opsgenie, grafana-oncall, ics or csv',
  apiKey: 'Give the API key to read this account with',
  content: 'Give the file to import',
  contentTooLarge: `The file must be at most ${IMPORT_CONTENT_MAX / 1024 / 1024} MB`,
  notFound: 'Import not found',
  alreadyApplied: 'This plan was applied already: start a new import to bring later changes over',
  notApplied: 'Apply the plan before verifying it',
} as const;

/** POST /api/imports: the source and what reads it. The key is used for this read only. */
export const ImportRequestSchema = z
  .object({
    source: z.enum(IMPORT_SOURCES, { error: IMPORT_MESSAGES.source }),
    /** the source's API address; absent: the vendor's public one */
    apiUrl: text({ label: 'API address', trim: true })
      .url('API address must be a URL such as https://api.pagerduty.com')
      .max(500, 'API address must be at most 500 characters')
      .optional(),
    apiKey: text({ label: 'API key', trim: true })
      .min(1, IMPORT_MESSAGES.apiKey)
      .max(500, 'API key must be at most 500 characters')
      .optional(),
    content: text({ label: 'File', multiline: true })
      .min(1, IMPORT_MESSAGES.content)
      .max(IMPORT_CONTENT_MAX, IMPORT_MESSAGES.contentTooLarge)
      .optional(),
  })
  .superRefine((value, ctx) => {
    const api = (API_IMPORT_SOURCES as readonly string[]).includes(value.source);
    if (api && value.apiKey === undefined) {
      ctx.addIssue({ code: 'custom', path: ['apiKey'], message: IMPORT_MESSAGES.apiKey });
    }
    if (!api && value.content === undefined) {
      ctx.addIssue({ code: 'custom', path: ['content'], message: IMPORT_MESSAGES.content });
    }
  });
export type ImportRequest = z.input<typeof ImportRequestSchema>;

/** A note of the plan: a match, a miss or a mapping worth reading (see source-snapshot.ts). */
export const ImportNoteSchema = z.object({
  level: z.enum(['info', 'warning']),
  subject: z.string(),
  message: z.string(),
});
export type ImportNote = z.infer<typeof ImportNoteSchema>;

/** What the plan does with one person of the source. */
export const ImportPersonSchema = z.object({
  sourceId: z.string(),
  name: z.string(),
  email: z.string().nullable(),
  /** match: an existing Baton person; invite: a new invitation; skip: left out (see reason) */
  action: z.enum(['match', 'invite', 'skip']),
  /** the Baton person it is (match) or becomes (after apply) */
  userId: z.number().int().nullable(),
  reason: z.string().nullable(),
});
export type ImportPerson = z.infer<typeof ImportPersonSchema>;

export const IMPORT_OBJECT_KINDS = ['rotation', 'policy', 'integration', 'cover'] as const;

/** What the plan does with one schedule, policy, integration or override. */
export const ImportChangeSchema = z.object({
  kind: z.enum(IMPORT_OBJECT_KINDS),
  action: z.enum(['create', 'update', 'unchanged']),
  sourceId: z.string(),
  name: z.string(),
  /** the Baton object it is (update, unchanged) or became (after apply) */
  batonId: z.number().int().nullable(),
  /** what it becomes, in words: "2 layers: weekly from Monday 09:00; 12-hour nights" */
  details: z.array(z.string()),
});
export type ImportChange = z.infer<typeof ImportChangeSchema>;

/** An alert endpoint the import made: where to point monitoring after the move. */
export const ImportEndpointSchema = z.object({
  integrationId: z.number().int(),
  name: z.string(),
  /** the source's integration it replaces, in the source's words */
  replaces: z.string(),
  url: z.string(),
  /** the integration key (PagerDuty's routing key, Opsgenie's GenieKey) */
  key: z.string(),
});
export type ImportEndpoint = z.infer<typeof ImportEndpointSchema>;

/** A plan, and once applied what it did. */
export const ImportPlanSchema = z.object({
  id: z.number().int(),
  source: z.enum(IMPORT_SOURCES),
  /** which account or file: with source ids it keys what an import made */
  account: z.string(),
  status: z.enum(['planned', 'applied']),
  createdAt: z.string(),
  appliedAt: z.string().nullable(),
  window: z.object({ from: z.string(), to: z.string() }),
  summary: z.object({
    create: z.number().int(),
    update: z.number().int(),
    unchanged: z.number().int(),
    invite: z.number().int(),
    warnings: z.number().int(),
  }),
  people: z.array(ImportPersonSchema),
  changes: z.array(ImportChangeSchema),
  notes: z.array(ImportNoteSchema),
  /** after apply: the alert endpoints to point monitoring at */
  endpoints: z.array(ImportEndpointSchema),
});
export type ImportPlan = z.infer<typeof ImportPlanSchema>;

/** One stretch where Baton and the source name different people. */
export const ImportDifferenceSchema = z.object({
  rotationId: z.number().int(),
  rotationName: z.string(),
  start: z.string(),
  end: z.string(),
  /** who the source has on call (null: nobody) */
  source: z.string().nullable(),
  /** who Baton has on call (null: nobody) */
  baton: z.string().nullable(),
});
export type ImportDifference = z.infer<typeof ImportDifferenceSchema>;

/** GET /api/imports/{id}/verify: complete when there is no difference over the window. */
export const ImportVerifySchema = z.object({
  complete: z.boolean(),
  window: z.object({ from: z.string(), to: z.string() }),
  differences: z.array(ImportDifferenceSchema),
});
export type ImportVerify = z.infer<typeof ImportVerifySchema>;
