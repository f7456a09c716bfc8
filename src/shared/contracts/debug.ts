import { z } from 'zod';

/**
 * Contracts of the administrators' diagnostics (specification sections 2, 3 and 7). Every value
 * comes from the running server and its database; none of them reveals a secret: the database
 * is named without credentials and the encryption key only as available or not.
 */

/** How many rotations the sample previews show. */
export const DEBUG_SAMPLE_SIZE = 2;

/** A rotation as the diagnostics compare it: the same fields from both reads. */
export const DebugRotationSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  description: z.string().nullable(),
  cadence: z.string(),
  type: z.string(),
  suspended: z.boolean(),
  holderUserId: z.number().int().nullable(),
  nextHandoffAt: z.string().nullable(),
  timeZone: z.string(),
  handoffTime: z.string(),
  handoffWeekday: z.number().int(),
  memberCount: z.number().int(),
});
export type DebugRotation = z.infer<typeof DebugRotationSchema>;

/**
 * In production the diagnostics withhold the host's name, where the data lives and the database
 * version unless the operator sets DEBUG_DETAILS=1 (decision 173): such a field then reads
 * `withheld`, and the answer's `withheld` list names it.
 */
export const DEBUG_WITHHELD = 'withheld';
export const WithheldFieldSchema = z.enum(['hostname', 'dbHost', 'serverVersion']);
export type WithheldField = z.infer<typeof WithheldFieldSchema>;
/** the fields this answer withholds; empty when every detail is shown */
const withheld = z.array(WithheldFieldSchema);

export const DebugEnvironmentSchema = z.object({
  nodeEnv: z.string(),
  hostname: z.string(),
  /** where the data lives, e.g. postgres://db.internal:5432/baton or pglite:/var/lib/baton */
  dbHost: z.string(),
  encryptionKeyAvailable: z.boolean(),
});
export type DebugEnvironment = z.infer<typeof DebugEnvironmentSchema>;

/** RotationsCompareSchema answers GET /api/debug/rotations-compare: a direct SQL read against the storage layer's. */
export const RotationsCompareSchema = z.object({
  summary: z.object({
    directCount: z.number().int(),
    storageCount: z.number().int(),
    match: z.boolean(),
  }),
  idComparison: z.object({
    onlyInDirect: z.array(z.number().int()),
    onlyInStorage: z.array(z.number().int()),
  }),
  environment: DebugEnvironmentSchema,
  fieldDifferences: z.array(
    z.object({
      id: z.number().int(),
      /** the names of the fields whose values differ */
      differences: z.array(z.string()),
      direct: DebugRotationSchema,
      storage: DebugRotationSchema,
    }),
  ),
  samples: z.object({
    directFirst: z.array(DebugRotationSchema),
    storageFirst: z.array(DebugRotationSchema),
  }),
  withheld,
});
export type RotationsCompare = z.infer<typeof RotationsCompareSchema>;

/** ProductionFilteringSchema answers GET /api/debug/production-filtering. */
export const ProductionFilteringSchema = z.object({
  environment: z.object({ environment: z.string(), dbHost: z.string() }),
  rotationsStats: z.object({
    total: z.number().int(),
    active: z.number().int(),
    suspended: z.number().int(),
    /** 0–100, one decimal */
    percentSuspended: z.number(),
  }),
  potentialFilteringIssues: z.object({
    /** the storage layer's list leaves out suspended rotations */
    hasFilteringSuspended: z.boolean(),
    /** this environment's list leaves out rotations the database holds */
    hasFilteringProduction: z.boolean(),
  }),
  allRotationsWithStatus: z.array(
    z.object({
      id: z.number().int(),
      name: z.string(),
      status: z.enum(['active', 'suspended']),
    }),
  ),
  withheld,
});
export type ProductionFiltering = z.infer<typeof ProductionFilteringSchema>;

/** DirectRotationsSchema answers GET /api/debug/rotations: the rotations table read with plain SQL. */
export const DirectRotationsSchema = z.object({
  source: z.literal('direct-sql'),
  count: z.number().int(),
  rotations: z.array(DebugRotationSchema),
});
export type DirectRotations = z.infer<typeof DirectRotationsSchema>;

/** DatabaseDiagnosticsSchema answers GET /api/debug/database. */
export const DatabaseDiagnosticsSchema = z.object({
  engine: z.enum(['pglite', 'postgres']),
  dbHost: z.string(),
  serverVersion: z.string(),
  /** round trip of `select 1`, milliseconds */
  pingMs: z.number(),
  migrationsApplied: z.number().int(),
  tables: z.array(z.object({ name: z.string(), rows: z.number().int() })),
  checkedAt: z.string(),
  withheld,
});
export type DatabaseDiagnostics = z.infer<typeof DatabaseDiagnosticsSchema>;

/** ClientCheckSchema answers GET /api/debug/client-check: how rotation data looks on the wire. */
export const ClientCheckSchema = z.object({
  rotations: z.object({
    asObject: z.object({ count: z.number().int(), ids: z.array(z.number().int()) }),
    jsonArray: z.array(DebugRotationSchema),
    /** the same array as a JSON string, for the client to parse back */
    stringified: z.string(),
    sampleRotation: DebugRotationSchema.nullable(),
  }),
  environment: z.object({ nodeEnv: z.string(), hostname: z.string(), isProd: z.boolean() }),
  testValues: z.object({
    number: z.number(),
    zero: z.number(),
    string: z.string(),
    emptyString: z.string(),
    nullValue: z.null(),
    booleanAsBoolean: z.boolean(),
    booleanAsString: z.string(),
    falseAsBoolean: z.boolean(),
    falseAsString: z.string(),
    date: z.string(),
  }),
  withheld,
});
export type ClientCheck = z.infer<typeof ClientCheckSchema>;

/** How the audit chain broke first (decision 172). */
export const AUDIT_BREAK_KINDS = [
  /** an event's fields no longer give its stored hash: it was changed after it was written */
  'altered',
  /** an event's previous hash is not the hash of the event before it */
  'unlinked',
  /** a position of the chain has no event: an event was deleted */
  'missing',
  /** a deleted person's sealed name does not open for its event: altered or moved */
  'sealed',
  /** the chain head does not name the last event: events at the end were deleted, or one was added around the trigger */
  'head',
] as const;

/** AuditIntegritySchema answers GET /api/debug/audit-integrity: the audit trail's hash chain, verified. */
export const AuditIntegritySchema = z.object({
  status: z.enum(['intact', 'broken']),
  /** events read and verified, up to the first broken link */
  eventsChecked: z.number().int(),
  /** the chain head as stored: the last event's position and hash */
  head: z.object({ seq: z.number().int(), hash: z.string() }),
  firstBroken: z
    .object({
      kind: z.enum(AUDIT_BREAK_KINDS),
      /** the chain position where it broke, and the event there (null when none is there) */
      chainSeq: z.number().int(),
      eventId: z.number().int().nullable(),
      message: z.string(),
    })
    .nullable(),
  durationMs: z.number(),
  checkedAt: z.string(),
});
export type AuditIntegrity = z.infer<typeof AuditIntegritySchema>;
