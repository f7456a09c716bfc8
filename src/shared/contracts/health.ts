import { z } from 'zod';

/** LivenessSchema is GET /healthz and GET /api/health: the process is up, and its version. */
export const LivenessSchema = z.object({ status: z.literal('ok'), version: z.string() });

/** ReadinessSchema is GET /readyz when the server can serve: its database, and its engine's last tick. */
export const ReadinessSchema = z.object({
  status: z.literal('ready'),
  version: z.string(),
  /** pglite or postgres */
  database: z.string(),
  /** when the engine runs in this process */
  engine: z.object({ lastTickAt: z.string().nullable() }).optional(),
});
export type Readiness = z.infer<typeof ReadinessSchema>;
