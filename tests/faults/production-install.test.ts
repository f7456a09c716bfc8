import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { cp, mkdir, readFile } from 'node:fs/promises';
import net from 'node:net';
import path from 'node:path';
import { afterAll, expect, test } from 'vitest';
import { FAULTS_KEY, removeDir, sleep, tempDir } from './support/processes';

/**
 * The production install (issue 20, decision 227). No container runs on these machines, so this
 * runs the Dockerfile's runtime stage itself, instruction by instruction, in a clean directory
 * standing for the image's /app: each COPY from the build context or from the build stage (this
 * tree after `npm run build`, which the fault suite does first), each RUN (`npm install
 * --omit=dev`: the runtime packages only), each ENV; then its CMD starts Baton in production and
 * its HEALTHCHECK command must pass. The README's steps are the same, ending in `npm start`, which
 * must start the built tree as it is: without sources and without the build tools. What this
 * cannot test: the base image, the image's `node` user (played by this machine's user), and the
 * compose file's PostgreSQL.
 */

const ROOT = path.resolve(import.meta.dirname, '../..');
const APP = '/app';

interface Instruction {
  keyword: string;
  args: string;
}

/** runtimeStage reads the Dockerfile's last stage: its instructions, continuation lines joined. */
function runtimeStage(dockerfile: string): Instruction[] {
  const lines = dockerfile
    .replace(/\\\n/g, ' ')
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line && !line.startsWith('#'));
  const instructions = lines.map((line) => {
    const keyword = line.split(/\s+/)[0] ?? '';
    return { keyword: keyword.toUpperCase(), args: line.slice(keyword.length).trim() };
  });
  const lastFrom = instructions.map((i) => i.keyword).lastIndexOf('FROM');
  return instructions.slice(lastFrom + 1);
}

/** execForm reads a JSON exec-form argument list (CMD, HEALTHCHECK … CMD). */
function execForm(args: string): string[] {
  const json = args.slice(args.indexOf('['));
  return JSON.parse(json) as string[];
}

const freePort = () =>
  new Promise<number>((resolve) => {
    const server = net.createServer().listen(0, '127.0.0.1', () => {
      const address = server.address() as net.AddressInfo;
      server.close(() => resolve(address.port));
    });
  });

let dir: string | undefined;
let child: ChildProcess | undefined;
afterAll(async () => {
  child?.kill('SIGKILL');
  if (dir) await removeDir(dir);
});

/** start runs a command in the installed tree and waits until its HEALTHCHECK command passes. */
async function start(command: string[], env: Record<string, string>, healthcheck: string[]) {
  const [file = '', ...args] = command;
  const proc = spawn(file, args, { cwd: dir, env, stdio: ['ignore', 'pipe', 'pipe'] });
  child = proc;
  let output = '';
  proc.stdout?.on('data', (d) => {
    output += d;
  });
  proc.stderr?.on('data', (d) => {
    output += d;
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    proc.on('exit', (code, signal) => resolve({ code, signal })),
  );
  const deadline = Date.now() + 60_000;
  for (;;) {
    const [hcFile = '', ...hcArgs] = healthcheck;
    const check = spawnSync(hcFile, hcArgs, { cwd: dir, env, timeout: 5_000 });
    if (check.status === 0) break;
    if (proc.exitCode !== null || Date.now() > deadline) {
      throw new Error(`Baton did not become ready (exit ${proc.exitCode}):\n${output}`);
    }
    await sleep(250);
  }
  return {
    output: () => output,
    stop: async () => {
      proc.kill('SIGTERM');
      return exited;
    },
  };
}

test('the Dockerfile runtime stage, run step by step in a clean directory, starts Baton in production without the build tools; so does `npm start` there', async () => {
  dir = await tempDir('production-install');
  const uid = `${process.getuid?.() ?? 0}:${process.getgid?.() ?? 0}`;
  const map = (text: string) => text.replaceAll(APP, dir as string).replaceAll('node:node', uid);
  const stage = runtimeStage(await readFile(path.join(ROOT, 'Dockerfile'), 'utf8'));
  // The machine's environment (its certificates for the npm registry, as a build host's), less
  // what the npm and Vitest running this test set; then the Dockerfile's ENV lines.
  const env: Record<string, string> = Object.fromEntries(
    Object.entries(process.env).filter(
      (entry): entry is [string, string] =>
        entry[1] !== undefined &&
        !/^(npm_|VITEST|NODE_ENV$|DATABASE_URL$|DATA_DIR$)/i.test(entry[0]),
    ),
  );
  let command: string[] = [];
  let healthcheck: string[] = [];
  let cwd = dir;

  for (const { keyword, args } of stage) {
    switch (keyword) {
      case 'ENV':
        for (const [, key = '', value = ''] of map(args).matchAll(/(\w+)=(\S+)/g)) env[key] = value;
        break;
      case 'WORKDIR':
        cwd = map(args);
        await mkdir(cwd, { recursive: true });
        break;
      case 'COPY': {
        const words = args.split(/\s+/).filter((word) => !word.startsWith('--chown='));
        const fromBuild = words[0]?.startsWith('--from=') ?? false;
        const [dest = '', ...sources] = words.slice(fromBuild ? 1 : 0).reverse();
        for (const source of sources.reverse()) {
          // the build stage is this tree after `npm run build`; its /app is this tree's root
          const from = path.join(ROOT, fromBuild ? path.relative(APP, source) : source);
          const to = path.resolve(cwd, dest);
          const target = dest.endsWith('/') ? path.join(to, path.basename(from)) : to;
          await cp(from, target, { recursive: true });
        }
        break;
      }
      case 'RUN': {
        const run = spawnSync('sh', ['-c', map(args)], { cwd, env, encoding: 'utf8' });
        expect(run.status, `RUN ${args}\n${run.stdout}\n${run.stderr}`).toBe(0);
        break;
      }
      case 'CMD':
        command = execForm(args);
        break;
      case 'HEALTHCHECK':
        healthcheck = execForm(args);
        break;
      case 'USER':
      case 'EXPOSE':
      case 'VOLUME':
        break; // the image's user is this machine's; ports and volumes are the container's
      default:
        throw new Error(
          `The Dockerfile's runtime stage uses ${keyword}, which this test cannot run`,
        );
    }
  }

  // A built tree without sources and without the build tools.
  expect(existsSync(path.join(dir, 'dist/server/main.js'))).toBe(true);
  expect(existsSync(path.join(dir, 'dist/client/index.html'))).toBe(true);
  expect(existsSync(path.join(dir, 'src'))).toBe(false);
  for (const tool of ['vite', 'esbuild', 'typescript', 'tsx', 'vitest', 'react']) {
    expect(existsSync(path.join(dir, 'node_modules', tool)), tool).toBe(false);
  }

  const production = {
    ...env,
    NODE_ENV: 'production',
    ENCRYPTION_KEY: FAULTS_KEY,
    COMPANY_DOMAIN: 'example.com',
    // readiness needs a notification channel (decision 163); nothing is sent in this test
    SMTP_URL: 'smtp://127.0.0.1:2525',
    HOST: '127.0.0.1',
    PORT: String(await freePort()),
    LOG_LEVEL: 'info',
  };
  const health = async () => {
    const res = await fetch(`http://127.0.0.1:${production.PORT}/healthz`);
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  };

  // The image's command.
  const image = await start(command, production, healthcheck);
  expect((await health()).status).toBe(200);
  expect(await image.stop(), image.output()).toEqual({ code: 0, signal: null });

  // The README's production install ends in `npm start`: it starts the same built tree, on the
  // data the first start made, without building.
  const npmStart = await start(['npm', 'start', '--silent'], production, healthcheck);
  expect((await health()).status).toBe(200);
  expect(npmStart.output()).not.toContain('Building Baton');
  // npm passes the SIGTERM on to Baton (one process: scripts/start.mjs) and ends as it did
  const stopped = await npmStart.stop();
  expect([0, 'SIGTERM'], npmStart.output()).toContain(stopped.code ?? stopped.signal);
  // Baton itself shuts down, and nothing is left listening
  const deadline = Date.now() + 15_000;
  while (
    await health().then(
      () => Date.now() < deadline,
      () => false,
    )
  )
    await sleep(200);
  await expect(health()).rejects.toThrow();
  expect(npmStart.output()).toContain('shutting down');
}, 300_000);
