// The browser suite of `npm run test:e2e` (after its one build): E2E_SHARDS Playwright processes at
// once (default: one per core, os.availableParallelism()). playwright.config.ts gives every
// process its own server on its own port and its own data directory; this script gives each its
// own output folder (test-results/e2e-N) and, under CI, its own JSON report
// (.ci-results/e2e-N.json, which .ci/run adds up). Each line a shard prints is prefixed with its
// number; the exit code is non-zero when any shard failed.
//
// One per core: a shard is a Playwright worker, a Chromium and a Baton server. Three shards on
// the 2-core machine once beat one (decision 215), while a worker mostly waited on sleeps and
// sign-ins; with those gone the suite is bound by the processor. Measured on two cores, two
// shards took 10m30 and three 10m13, but under three every test ran a third longer and the
// slowest reached 107 of its 120 s, against 82 under two (decision 240).
//
// The spec files are dealt out whole, longest first, to the shard with the least time so far, by
// the seconds each took (SECONDS below). Playwright's own --shard cuts the file list at half the
// number of tests, which here gave one shard 12.9 minutes and the other 8.3: the accessibility
// sweeps are few tests and much of the time. Arguments (`npm run test:e2e -- paging.spec.ts`,
// `--grep …`) go to every shard, which then uses Playwright's --shard=N/M instead. E2E_SHARDS=1
// runs one plain `playwright test`.
import { spawn } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import { createInterface } from 'node:readline';

/**
 * Seconds each file costs its shard: its tests' seconds in one run of the whole suite (the clean
 * clone's `.ci/run` of the fifteenth session, 2026-11-30, a quiet 2-core machine), plus about 9 s
 * for each file that starts a server of its own (identity, imports, notifications, paging,
 * setup-checklist) and 8 s for the full Chromium push.spec.ts starts: Playwright's report counts
 * neither. Only their proportions matter: they balance the shards, and a wrong figure costs time,
 * never a test. A file missing here counts as the median; measure it when it grows (the clean
 * clone's .ci-results/e2e-N.json hold each test's duration).
 */
const SECONDS = {
  'accessibility.spec.ts': 115,
  'rotations.spec.ts': 105,
  'screens.spec.ts': 64,
  'accessibility-help.spec.ts': 59,
  'identity.spec.ts': 57,
  'foundation.spec.ts': 42,
  'rotation-screens.spec.ts': 41,
  'paging.spec.ts': 40,
  'live-updates.spec.ts': 34,
  'admin-trail.spec.ts': 26,
  'people-and-handoff-notes.spec.ts': 25,
  'integrations.spec.ts': 22,
  'setup-checklist.spec.ts': 22,
  'calendar.spec.ts': 21,
  'rotation-layers-form.spec.ts': 20,
  'imports.spec.ts': 19,
  'shift-moved.spec.ts': 16,
  'notifications.spec.ts': 15,
  'one-clock.spec.ts': 13,
  'push.spec.ts': 12,
  'rotation-settings.spec.ts': 12,
  'incidents.spec.ts': 10,
  'demo-inbox.spec.ts': 9,
  'notification-rules.spec.ts': 9,
  'upcoming-shifts.spec.ts': 9,
  'escalation-policies.spec.ts': 8,
  'repeating-schedule.spec.ts': 8,
  'time-off.spec.ts': 8,
  'debug-tools.spec.ts': 7,
  'planned-cover.spec.ts': 7,
  'reach-someone-else.spec.ts': 7,
  'api-tokens.spec.ts': 6,
  'destinations.spec.ts': 6,
  'incident-lifecycle.spec.ts': 6,
  'reach-the-person.spec.ts': 6,
  'instant-pages.spec.ts': 5,
  'rotation-timeline.spec.ts': 5,
  'api-docs.spec.ts': 4,
  'slack.spec.ts': 2,
  'unstaffed-rotation.spec.ts': 2,
};
const TEST_DIR = 'tests/e2e';

const cli = createRequire(import.meta.url).resolve('@playwright/test/cli');
const args = process.argv.slice(2);
const shards = Number(process.env.E2E_SHARDS ?? os.availableParallelism());
if (!Number.isInteger(shards) || shards < 1) {
  console.error(`E2E_SHARDS must be a whole number of 1 or more, not ${process.env.E2E_SHARDS}`);
  process.exit(2);
}

/** deal gives each shard its files (paths playwright matches exactly), or null to use --shard. */
function deal() {
  if (args.length > 0) return null;
  const files = readdirSync(TEST_DIR).filter((f) => /\.spec\.ts$/.test(f));
  const known = Object.values(SECONDS).sort((a, b) => a - b);
  const median = known[Math.floor(known.length / 2)];
  const weight = (f) => SECONDS[f] ?? median;
  const dealt = Array.from({ length: shards }, () => ({ files: [], seconds: 0 }));
  for (const f of [...files].sort((a, b) => weight(b) - weight(a) || a.localeCompare(b))) {
    const lightest = dealt.reduce((min, s) => (s.seconds < min.seconds ? s : min));
    lightest.files.push(f);
    lightest.seconds += weight(f);
  }
  // Anchored (Playwright reads each argument as a pattern): screens.spec.ts must not also pick
  // rotation-screens.spec.ts.
  return dealt.map((s) => s.files.sort().map((f) => `${TEST_DIR}/${f}$`));
}

if (shards === 1) {
  const child = spawn(process.execPath, [cli, 'test', ...args], { stdio: 'inherit' });
  child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
} else {
  const started = Date.now();
  const minutes = (ms) =>
    `${Math.floor(ms / 60_000)}m${String(Math.round((ms % 60_000) / 1000)).padStart(2, '0')}s`;
  const dealt = deal();
  const runs = Array.from({ length: shards }, (_, k) => {
    const shard = `${k + 1}/${shards}`;
    const env = {
      ...process.env,
      E2E_OUTPUT_DIR: `test-results/e2e-${k + 1}`,
      E2E_JSON_REPORT: `.ci-results/e2e-${k + 1}.json`,
    };
    // Each shard's configuration picks its own port and data directory.
    delete env.E2E_PORT;
    delete env.E2E_SLACK_PORT;
    delete env.E2E_DATA_DIR;
    const selection = dealt ? dealt[k] : [`--shard=${shard}`, ...args];
    const prefix = `[e2e ${shard}] `;
    if (dealt && dealt[k].length === 0) return Promise.resolve(0); // more shards than files
    if (dealt)
      console.log(`${prefix}${dealt[k].map((f) => f.slice(TEST_DIR.length + 1, -1)).join(' ')}`);
    const child = spawn(process.execPath, [cli, 'test', ...selection], {
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    createInterface({ input: child.stdout }).on('line', (l) =>
      process.stdout.write(`${prefix}${l}\n`),
    );
    createInterface({ input: child.stderr }).on('line', (l) =>
      process.stderr.write(`${prefix}${l}\n`),
    );
    return new Promise((resolve) => {
      child.on('exit', (code, signal) => {
        const status = code ?? 1;
        console.log(`${prefix}exited ${signal ?? status} after ${minutes(Date.now() - started)}`);
        resolve(status);
      });
    });
  });
  const statuses = await Promise.all(runs);
  process.exit(statuses.every((s) => s === 0) ? 0 : 1);
}
