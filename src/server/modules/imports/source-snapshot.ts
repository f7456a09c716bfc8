import type { ImportSourceName } from '../../../shared/contracts/imports';
import type { IntegrationSource } from '../../../shared/contracts/integrations';
import type { Cadence } from '../../../shared/domain/layers';
import type { OnDutyWindow } from '../../../shared/domain/on-duty-windows';

/**
 * What every import source reads (issue 34): one account's people, schedules, escalation policies
 * and alert sources, in Baton's terms but still named by the source's own ids, with the source's
 * own rendering of who is on call over the import window. A reader (PagerDuty, Opsgenie, Grafana
 * OnCall, a calendar file, a spreadsheet) turns its source into this and nothing else; planning,
 * applying and verifying work on this alone, so a new source is one reader.
 *
 * The reader maps each construct onto Baton's (layers, shift lengths, on-duty windows, planned
 * cover, policy steps) and says, as a note, what it could not map and what it did instead. It
 * never reads or writes Baton's database.
 */

/**
 * A note for the plan: a match, a miss or a mapping a person should read, with the source object
 * it is about. `level` 'warning' is something Baton could not keep as the source has it (a
 * restriction it cannot express, a user with no email); 'info' is a choice worth knowing.
 */
export interface SourceNote {
  level: 'info' | 'warning';
  /** what it is about, in the source's words: "Schedule “Platform” layer 2", "User ada@…" */
  subject: string;
  /** the sentence a person reads: what happened and why */
  message: string;
}

/** A person as the source has them. */
export interface SourcePerson {
  sourceId: string;
  name: string;
  /** matched to Baton people by email (case-insensitive); null: cannot be matched or invited */
  email: string | null;
  /** E.164 when the source has one */
  phone?: string | null;
  /** IANA zone when the source has one */
  timeZone?: string | null;
  /** the Baton role the source's role maps to; absent: member */
  role?: 'admin' | 'manager' | 'member';
}

/** One stretch with one person on call: a rendered shift, an override or a calendar event. */
export interface SourceShift {
  start: Date;
  end: Date;
  personSourceId: string;
}

/**
 * One layer of a schedule in Baton's terms (decision 246): members in turn order (a person may
 * take more than one turn), turns of `cadenceEvery` × `cadence` following the clock from
 * `startsAt`, boundaries at `handoffTime` (weekly: on `handoffWeekday`) in the schedule's zone,
 * on duty only in `activeWindows` (empty: always). Later layers win where they have someone on
 * duty, as in PagerDuty and Grafana OnCall.
 */
export interface SourceLayer {
  name: string;
  memberSourceIds: string[];
  cadence: Cadence;
  cadenceEvery: number;
  handoffTime: string;
  handoffWeekday: number;
  activeWindows: OnDutyWindow[];
  startsAt: Date;
}

/** A schedule: one Baton rotation. */
export interface SourceSchedule {
  sourceId: string;
  name: string;
  description?: string | null;
  /** IANA zone the layers' wall-clock times are in */
  timeZone: string;
  /**
   * the layers, lowest first; null when the source's pattern is one Baton cannot express as
   * layers: the rotation is then a scheduled one whose entries are `rendered` (and the reader
   * adds a warning note saying so)
   */
  layers: SourceLayer[] | null;
  /** overrides (cover) that end after the window's start, clipped to the window */
  overrides: SourceShift[];
  /**
   * the source's own rendering of who is on call over the window, overrides included, as the
   * source computes it (PagerDuty's final_schedule, Opsgenie's timeline, Grafana OnCall's final
   * shifts, the calendar's events): verify compares Baton's rendering with this, minute by minute
   */
  rendered: SourceShift[];
}

/** Who a policy step notifies. */
export type SourceTarget =
  | { kind: 'schedule'; sourceId: string }
  | { kind: 'person'; sourceId: string };

export interface SourceEscalationStep {
  /** minutes after the previous step (the first: after the incident opens) */
  delayMinutes: number;
  targets: SourceTarget[];
}

/** An escalation policy (PagerDuty's policy, Opsgenie's escalation, Grafana's chain). */
export interface SourceEscalationPolicy {
  sourceId: string;
  name: string;
  description?: string | null;
  /** how many more times the steps run after the last one (0: once) */
  repeat: number;
  steps: SourceEscalationStep[];
  /**
   * minutes from the last step to the repeat (or to the end, when it does not repeat), where the
   * source says: PagerDuty's last rule's delay, Opsgenie's wait before repeating, Grafana's wait
   * before its repeat step; absent or null: as long as the wait before the last step
   */
  loopDelayMinutes?: number | null;
}

/** An alert source (a PagerDuty service's integration, an Opsgenie API integration, …). */
export interface SourceIntegration {
  sourceId: string;
  name: string;
  /** which Baton endpoint it becomes: the format monitoring already speaks */
  source: IntegrationSource;
  /** the policy its alerts escalate by (a Baton integration needs a policy or a schedule) */
  policySourceId: string | null;
  scheduleSourceId: string | null;
}

/** Everything one source holds, read once for a plan. */
export interface SourceSnapshot {
  source: ImportSourceName;
  /**
   * which account this is (PagerDuty's and Grafana's API address, an Opsgenie region, a file's
   * name): with the source ids it keys what an import made, so importing again changes only
   * what changed in the source
   */
  account: string;
  /** the window overrides and renderings cover: [from, to) */
  window: { from: Date; to: Date };
  people: SourcePerson[];
  schedules: SourceSchedule[];
  policies: SourceEscalationPolicy[];
  integrations: SourceIntegration[];
  notes: SourceNote[];
}

/** What a reader is given: the request's fields, the window and how to reach the source. */
export interface SourceReadInput {
  apiUrl?: string;
  apiKey?: string;
  content?: string;
  window: { from: Date; to: Date };
  /** GET a URL of the source (see source-http.ts); readers never call fetch themselves */
  get: SourceGet;
}

/** A GET of the source: the status and parsed JSON body, or a thrown ImportSourceError. */
export type SourceGet = (
  url: string,
  headers: Record<string, string>,
) => Promise<{ status: number; body: unknown }>;

/** A reader: one source's way of making a snapshot. */
export type SourceReader = (input: SourceReadInput) => Promise<SourceSnapshot>;

/**
 * ImportSourceError is a source that could not be read: a refused key, a timeout, malformed data,
 * a file Baton cannot read. Its message names what failed in words a person can act on ("PagerDuty
 * refused the API key (401): check it is a valid REST API key"); the import answers it as a 4xx
 * (422, or 502 when the source itself failed) and writes nothing.
 */
export class ImportSourceError extends Error {
  constructor(
    message: string,
    /** 'input': what the person gave is wrong; 'source': the source failed or answered badly */
    readonly kind: 'input' | 'source' = 'source',
  ) {
    super(message);
    this.name = 'ImportSourceError';
  }
}
