import { z } from 'zod';
import { NOTIFICATION_METHODS, RULE_URGENCIES } from '../domain/notification-rules';

/**
 * `GET /api/users/reachability` (issue 33, decision 254): how each person the viewer looks after
 * can be reached: administrators everyone, managers the people of the rotations they manage,
 * anyone else themselves. Each method with why it cannot reach them, and each urgency none of
 * their rules can reach them by (the dashboard warns: "X cannot be reached: …").
 */
export const PersonReachSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  methods: z.array(
    z.object({ method: z.enum(NOTIFICATION_METHODS), whyNot: z.string().nullable() }),
  ),
  gaps: z.array(z.object({ urgency: z.enum(RULE_URGENCIES), reasons: z.array(z.string()) })),
});
export type PersonReach = z.infer<typeof PersonReachSchema>;

export const ReachabilitySchema = z.object({ people: z.array(PersonReachSchema) });
export type Reachability = z.infer<typeof ReachabilitySchema>;
