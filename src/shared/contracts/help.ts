import { z } from 'zod';
import type { HandoffFlowTimings } from '../domain/handoff-flow';

/**
 * HandoffTimingsSchema is the handoff flow's timings as this deployment has them (HANDOFF_*_MINUTES),
 * in minutes, for the help pages (decision 134).
 */
export const HandoffTimingsSchema = z.object({
  /** the handoff notice, this long before the shift ends */
  noticeBeforeMinutes: z.number().int().positive(),
  /** the escalation notice, this long after the shift ended without a handoff */
  escalateAfterMinutes: z.number().int().positive(),
  /** the automatic transfer, this long after the shift ended */
  autoTransferAfterMinutes: z.number().int().positive(),
  /** the incoming holder acknowledges within this, or the handoff is missed */
  acknowledgeWithinMinutes: z.number().int().positive(),
  /** the previous holder stays backup this long after a handoff */
  backupMinutes: z.number().int().nonnegative(),
});
export type HandoffTimings = z.infer<typeof HandoffTimingsSchema>;

/** HelpTimingsSchema answers GET /api/help/timings (public: the help pages need no sign-in). */
export const HelpTimingsSchema = z.object({ handoff: HandoffTimingsSchema });
export type HelpTimings = z.infer<typeof HelpTimingsSchema>;

const MINUTE = 60_000;

/** handoffTimingsInMinutes returns the flow's timings in whole minutes. */
export function handoffTimingsInMinutes(t: HandoffFlowTimings): HandoffTimings {
  return {
    noticeBeforeMinutes: Math.round(t.noticeBeforeMs / MINUTE),
    escalateAfterMinutes: Math.round(t.escalateAfterMs / MINUTE),
    autoTransferAfterMinutes: Math.round(t.autoTransferAfterMs / MINUTE),
    acknowledgeWithinMinutes: Math.round(t.acknowledgeWithinMs / MINUTE),
    backupMinutes: Math.round(t.backupMs / MINUTE),
  };
}

/** Where the Users Forum link points unless USERS_FORUM_URL says otherwise (decision 184). */
export const DEFAULT_USERS_FORUM_URL = 'https://github.com/baton-oncall/baton/discussions';
/** Where the Report a Bug link points unless BUG_REPORT_URL says otherwise: the bug backlog. */
export const DEFAULT_BUG_REPORT_URL = 'https://github.com/baton-oncall/baton/issues';

/**
 * HelpLinksSchema answers GET /api/help/links (public): where this deployment's Users Forum and
 * Report a Bug links point (USERS_FORUM_URL, BUG_REPORT_URL; decision 184).
 */
export const HelpLinksSchema = z.object({
  usersForumUrl: z.url({ protocol: /^https?$/ }),
  bugReportUrl: z.url({ protocol: /^https?$/ }),
});
export type HelpLinks = z.infer<typeof HelpLinksSchema>;
