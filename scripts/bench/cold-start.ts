// Cold start and footprint (issue 36): how long `npm start` takes to be ready on an existing data
// directory, and how much disk the production install and the build take.
//
// The start is timed as an operator sees it: from spawning `node scripts/start.mjs` (the build
// check, then the built server in the same process, decision 227) to the first 200 from /readyz,
// the median of several starts on one seeded organisation. The production install is the
// Dockerfile's runtime stage done in a temporary directory: package.json and package-lock.json,
// `npm install --omit=dev`, then dist/, drizzle/ and the two start scripts copied in; its
// node_modules is counted file by file (the bytes of the files, not the blocks they take).
import { type ChildProcess, spawnSync } from 'node:child_process';
import { cpSync, lstatSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { cpuMillis } from './alert-ingestion';

/** How many starts each engine's figure is the median of. */
export const START_RUNS = 5;
/** Issue 36: ready on an existing data directory within this, on both engines. */
export const READY_TARGET_MS = 2000;

/** What the bench gives this part: its own way of starting and stopping processes. */
export interface StartHarness {
  /** spawns `node <args>` with the server's environment (cwd: `cwd`, else the repository) */
  start: (args: string[], cwd?: string) => ChildProcess;
  /** resolves with the milliseconds from now until /readyz answers 200 */
  waitReady: (child: ChildProcess) => Promise<number>;
  stop: (child: ChildProcess) => Promise<void>;
}

export const median = (values: readonly number[]) =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] as number;

/**
 * timeStarts starts the server `runs` times in turn with `args` and answers the milliseconds from
 * each spawn to its first ready answer, and the CPU the process had used by then (what a start
 * costs on a busy machine); each is stopped before the next starts.
 */
export async function timeStarts(
  harness: StartHarness,
  args: string[],
  runs: number,
  cwd?: string,
): Promise<{ ms: number[]; cpuMs: number[] }> {
  const ms: number[] = [];
  const cpuMs: number[] = [];
  for (let i = 0; i < runs; i++) {
    const started = performance.now();
    const child = harness.start(args, cwd);
    try {
      await harness.waitReady(child);
      ms.push(performance.now() - started);
      if (child.pid !== undefined) cpuMs.push(cpuMillis([child.pid]).get(child.pid) ?? 0);
    } finally {
      await harness.stop(child);
    }
  }
  return { ms, cpuMs };
}

/** treeSize adds up the sizes of the files under `dir` (symbolic links not followed). */
export function treeSize(dir: string): { bytes: number; files: number } {
  let bytes = 0;
  let files = 0;
  const visit = (p: string) => {
    const stat = lstatSync(p);
    if (stat.isDirectory()) {
      for (const entry of readdirSync(p)) visit(path.join(p, entry));
    } else if (stat.isFile()) {
      bytes += stat.size;
      files += 1;
    }
  };
  visit(dir);
  return { bytes, files };
}

export const megabytes = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

export interface ProductionInstall {
  /** the installed tree, to start from; removed by `remove` */
  dir: string;
  nodeModules: { bytes: number; files: number };
  dist: { bytes: number; files: number };
  /** the packages installed, nested ones included */
  packages: number;
  installSeconds: number;
  remove: () => void;
}

/**
 * productionInstall runs the Dockerfile's runtime stage in a temporary directory: the package
 * files, `npm install --omit=dev` (from the registry, or npm's cache), and the built tree copied
 * in. Throws when the install fails.
 */
export function productionInstall(root: string): ProductionInstall {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'baton-bench-install-'));
  const remove = () => rmSync(dir, { recursive: true, force: true });
  try {
    for (const file of ['package.json', 'package-lock.json'])
      cpSync(path.join(root, file), path.join(dir, file));
    const started = performance.now();
    const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
    const install = spawnSync(npm, ['install', '--omit=dev', '--no-audit', '--no-fund'], {
      cwd: dir,
      env: { ...process.env, NODE_ENV: 'production' },
      encoding: 'utf8',
    });
    if (install.status !== 0)
      throw new Error(`npm install --omit=dev failed: ${install.stderr.slice(-2000)}`);
    const installSeconds = (performance.now() - started) / 1000;
    cpSync(path.join(root, 'dist'), path.join(dir, 'dist'), { recursive: true });
    cpSync(path.join(root, 'drizzle'), path.join(dir, 'drizzle'), { recursive: true });
    for (const script of ['scripts/ensure-build.mjs', 'scripts/start.mjs'])
      cpSync(path.join(root, script), path.join(dir, script), { recursive: true });
    const nodeModules = path.join(dir, 'node_modules');
    // npm's record of what it installed: one key per package directory, nested ones included
    const installed = JSON.parse(
      readFileSync(path.join(nodeModules, '.package-lock.json'), 'utf8'),
    ) as { packages: Record<string, unknown> };
    const packages = Object.keys(installed.packages).length;
    return {
      dir,
      nodeModules: treeSize(nodeModules),
      dist: treeSize(path.join(root, 'dist')),
      packages,
      installSeconds,
      remove,
    };
  } catch (err) {
    remove();
    throw err;
  }
}
