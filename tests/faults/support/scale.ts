/**
 * The size of the multi-instance and fault runs, in one place. FAULTS_SCALE=ci gives the short
 * run of `.ci/run`; anything else the full size the issue asks for (`npm run test:faults`).
 */

export const FAULTS_SCALE: 'ci' | 'full' = process.env.FAULTS_SCALE === 'ci' ? 'ci' : 'full';
const ci = FAULTS_SCALE === 'ci';

const MINUTE = 60_000;

export const scale = {
  /** three instances on one PostgreSQL database (tests/faults/multi-instance.test.ts) */
  multiInstance: {
    /** pass-baton requests in all, spread over the rotations and clients below */
    passRequests: ci ? 300 : 3_000,
    /** times three instances start at once on an empty database (first admin, demo seed) */
    startupRaces: ci ? 2 : 6,
    rotations: 10,
    clients: 30,
    /** the simulated month the three engines run through (a file clock, decision 090) */
    month: ci
      ? {
          // A week across Sydney's daylight-saving change (4 October).
          start: '2026-09-30T00:00:00Z',
          end: '2026-10-07T00:00:00Z',
          stepMs: 97 * MINUTE,
          outage: { from: '2026-10-02T06:00:00Z', to: '2026-10-03T11:00:00Z' },
        }
      : {
          // Sydney (4 October), London (25 October) and New York (1 November) change the clocks.
          start: '2026-09-28T00:00:00Z',
          end: '2026-11-06T00:00:00Z',
          stepMs: 29 * MINUTE,
          outage: { from: '2026-10-14T06:00:00Z', to: '2026-10-16T11:00:00Z' },
        },
  },
  /** SIGKILL in the middle of engine work (tests/faults/engine-kill.test.ts) */
  engineKill: {
    kills: ci ? 5 : 50,
    /** rotations due at every boundary, so a kill lands in the middle of the work */
    rotations: ci ? 120 : 240,
    /** the engine's interval (ENGINE_INTERVAL_SECONDS) on both instances */
    engineIntervalSeconds: 0.2,
  },
  /** SIGKILL of a PGlite process during writes, restarted at once (tests/faults/pglite-kill.test.ts) */
  pgliteKill: {
    kills: ci ? 6 : 100,
    /** rotations, each with one writer passing its baton around 3 members */
    rotations: 3,
    /** writers paging the rotations, and writers inviting people, at the same time */
    pageWriters: 2,
    invitationWriters: 1,
    /** the kill lands this long after the writers start, uniformly at random */
    killAfterMs: { min: 100, max: 3_000 },
  },
} as const;

/**
 * The time limit of each test and set-up hook, given explicitly: the shared setup file
 * (tests/setup/fail-on-console-error.ts) sets every file's default test timeout to 30 s.
 */
export const LONG = 900_000;
