import {
  API_IMPORT_SOURCES,
  IMPORT_SOURCES,
  type ImportPlan,
  type ImportSourceName,
  type ImportVerify,
} from '../src/shared/contracts/imports';

/**
 * `npm run import -- <source> --plan|--apply [--api-url URL] [--file PATH]` (issue 34, decision
 * 268): the import screen's three calls from a shell, against a running Baton with an
 * administrator's write API token. The source's key comes from IMPORT_API_KEY only: a flag would
 * land in the shell's history.
 */

export const USAGE = `Usage: npm run import -- <source> --plan|--apply [--api-url URL] [--file PATH]
  source: ${IMPORT_SOURCES.join(', ')}
  environment: BATON_URL (default http://localhost:3000), BATON_TOKEN (an administrator's write API
  token), IMPORT_API_KEY (the source's read-only key, for ${API_IMPORT_SOURCES.join(', ')})`;

export interface CommandArgs {
  source: ImportSourceName;
  mode: 'plan' | 'apply';
  apiUrl?: string;
  file?: string;
}

/** CommandError is a refusal the command prints and exits 1 with. */
export class CommandError extends Error {}

/** parseArgs reads the command line, or throws a CommandError saying what is wrong. */
export function parseArgs(argv: readonly string[]): CommandArgs {
  const [source, ...rest] = argv;
  if (!source || !(IMPORT_SOURCES as readonly string[]).includes(source)) {
    throw new CommandError(`Choose a source: ${IMPORT_SOURCES.join(', ')}\n${USAGE}`);
  }
  const args: Partial<CommandArgs> = { source: source as ImportSourceName };
  for (let i = 0; i < rest.length; i++) {
    const flag = rest[i];
    if (flag === '--plan' || flag === '--apply') {
      if (args.mode) throw new CommandError('Give one of --plan and --apply');
      args.mode = flag === '--plan' ? 'plan' : 'apply';
    } else if (flag === '--api-url' || flag === '--file') {
      const value = rest[++i];
      if (!value) throw new CommandError(`${flag} needs a value`);
      if (flag === '--api-url') args.apiUrl = value;
      else args.file = value;
    } else if (flag === '--api-key' || flag?.startsWith('--api-key=')) {
      throw new CommandError(
        'Give the key in IMPORT_API_KEY, not as a flag: a flag lands in the shell history',
      );
    } else throw new CommandError(`Unknown argument ${flag}\n${USAGE}`);
  }
  if (!args.mode) throw new CommandError(`Give --plan or --apply\n${USAGE}`);
  return args as CommandArgs;
}

/** What the command reaches outside itself: tests give their own. */
export interface CommandIo {
  env: Record<string, string | undefined>;
  readFile: (path: string) => Promise<string>;
  fetch: typeof fetch;
  write: (text: string) => void;
}

/** runImport runs the command and answers its exit code. */
export async function runImport(argv: readonly string[], io: CommandIo): Promise<number> {
  try {
    const args = parseArgs(argv);
    const baton = (io.env.BATON_URL ?? 'http://localhost:3000').replace(/\/+$/, '');
    const token = io.env.BATON_TOKEN;
    if (!token) throw new CommandError("Set BATON_TOKEN to an administrator's write API token");
    const call = caller(io, baton, token);
    const api = (API_IMPORT_SOURCES as readonly string[]).includes(args.source);
    if (api && !io.env.IMPORT_API_KEY) {
      throw new CommandError("Set IMPORT_API_KEY to the source's read-only API key");
    }
    if (!api && !args.file) throw new CommandError('Give the file to import with --file PATH');
    const plan = (await call('POST', '/api/imports', {
      source: args.source,
      ...(args.apiUrl ? { apiUrl: args.apiUrl } : {}),
      ...(api ? { apiKey: io.env.IMPORT_API_KEY } : {}),
      ...(args.file ? { content: await io.readFile(args.file) } : {}),
    })) as ImportPlan;
    io.write(formatPlan(plan));
    if (args.mode === 'plan') {
      io.write(`\nNothing written yet. To apply: npm run import -- ${args.source} --apply\n`);
      return 0;
    }
    const applied = (await call('POST', `/api/imports/${plan.id}/apply`)) as ImportPlan;
    io.write(formatEndpoints(applied));
    const verified = (await call('GET', `/api/imports/${plan.id}/verify`)) as ImportVerify;
    io.write(formatVerify(verified));
    return verified.complete ? 0 : 1;
  } catch (err) {
    if (!(err instanceof CommandError)) throw err;
    io.write(`${err.message}\n`);
    return 1;
  }
}

function caller(io: CommandIo, baton: string, token: string) {
  return async (method: 'GET' | 'POST', path: string, body?: unknown): Promise<unknown> => {
    let res: Response;
    try {
      res = await io.fetch(`${baton}${path}`, {
        method,
        headers: {
          authorization: `Bearer ${token}`,
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
    } catch {
      throw new CommandError(`Could not reach Baton at ${baton}: is it running? (BATON_URL)`);
    }
    const text = await res.text();
    let answer: unknown;
    try {
      answer = JSON.parse(text);
    } catch {
      throw new CommandError(`Baton answered ${res.status} with something that is not JSON`);
    }
    if (!res.ok) {
      const message = (answer as { message?: string }).message ?? 'no message';
      throw new CommandError(`Baton refused (${res.status}): ${message}`);
    }
    return answer;
  };
}

const PERSON_ACTION = { match: 'matched', invite: 'invite', skip: 'skipped' } as const;

/** formatPlan writes a plan as a person reads it in a terminal. */
export function formatPlan(plan: ImportPlan): string {
  const s = plan.summary;
  const lines = [
    `Import ${plan.id} from ${plan.source} (${plan.account}): ${plan.status}`,
    `Window ${plan.window.from} – ${plan.window.to}`,
    `${s.create} to create, ${s.update} to update, ${s.unchanged} unchanged, ${s.invite} to invite, ${s.warnings} warnings`,
    '',
    'People:',
    ...plan.people.map(
      (p) =>
        `  ${PERSON_ACTION[p.action].padEnd(8)} ${p.name}${p.email ? ` <${p.email}>` : ''}${p.reason ? ` (${p.reason})` : ''}`,
    ),
    '',
    'Changes:',
    ...plan.changes.flatMap((c) => [
      `  ${c.action.padEnd(9)} ${c.kind} “${c.name}” (${c.sourceId})${c.batonId ? ` → #${c.batonId}` : ''}`,
      ...c.details.map((d) => `            ${d}`),
    ]),
  ];
  if (plan.notes.length > 0) {
    lines.push('', 'Notes:');
    for (const n of plan.notes)
      lines.push(`  ${n.level === 'warning' ? '!' : '-'} ${n.subject}: ${n.message}`);
  }
  return `${lines.join('\n')}\n`;
}

/** formatEndpoints lists the alert endpoints an apply made: where to point monitoring. */
export function formatEndpoints(plan: ImportPlan): string {
  if (plan.endpoints.length === 0) return '\nApplied. No new alert endpoints.\n';
  const lines = ['', 'Applied. Point monitoring at the new endpoints (keys shown this once):'];
  for (const e of plan.endpoints) {
    lines.push(`  ${e.name} (replaces ${e.replaces})`, `    URL: ${e.url}`, `    Key: ${e.key}`);
  }
  return `${lines.join('\n')}\n`;
}

/** formatVerify says whether Baton matches the source, and each difference with both names. */
export function formatVerify(v: ImportVerify): string {
  if (v.complete) {
    return `\nVerified ${v.window.from} – ${v.window.to}: Baton matches the source. Import complete.\n`;
  }
  const lines = [
    '',
    `Verified ${v.window.from} – ${v.window.to}: ${v.differences.length} differences`,
  ];
  for (const d of v.differences) {
    lines.push(
      `  ${d.rotationName}: ${d.start} – ${d.end}: source ${d.source ?? 'nobody'}, Baton ${d.baton ?? 'nobody'}`,
    );
  }
  return `${lines.join('\n')}\n`;
}
