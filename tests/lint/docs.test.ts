import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { ENGINE_TASKS } from '../../src/server/engine-tasks';

/*
 * Docs a test keeps true (issue 31). Four checks, each a pure function over text, then the same
 * function over the real files: (a) every backticked path in docs/ and README.md names a file or
 * folder that exists; (b) docs/engine.md's table of tasks names ENGINE_TASKS, in order; (c) the
 * glossary defines no word twice; (d) a decision another supersedes says so, and every
 * "superseded by [N](file)" link reaches a file. Each check has a case with a broken input, so
 * none can pass by finding nothing to check.
 */

const root = path.resolve(import.meta.dirname, '../..');

/** What builds and runs write: named in docs, never in git. */
const OUTPUT_DIRS = ['dist/', 'data/', '.bench/', '.ci-results/', 'test-results/', 'DATA_DIR/'];

const PATH_END = /(\.(ts|tsx|mjs|js|json|md|sql|yaml|yml|html|css)|\/)$/;
const PLACEHOLDER = /[<>{}*…$=[\]]|\.\.\.|NNN/;

/** stripFences drops fenced code blocks: a layout tree in a fence is a picture, not a claim. */
function stripFences(markdown: string): string {
  return markdown.replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, '');
}

/** backtickedPaths lists the backticked tokens of a Markdown text that name a path. */
function backtickedPaths(markdown: string): string[] {
  const paths: string[] = [];
  for (const [, token] of stripFences(markdown).matchAll(/`([^`\n]+)`/g)) {
    if (
      token.includes('/') &&
      PATH_END.test(token) &&
      !token.startsWith('/') &&
      !token.includes('://') &&
      !/\s/.test(token) &&
      !PLACEHOLDER.test(token)
    ) {
      paths.push(token);
    }
  }
  return paths;
}

/** knownSuffixes is every tracked file and folder, and every tail of them after a '/'. */
function knownSuffixes(files: readonly string[]): Set<string> {
  const known = new Set<string>();
  for (const file of files) {
    const parts = file.split('/');
    for (let end = parts.length; end > 0; end--) {
      for (let start = 0; start < end; start++) {
        const tail = parts.slice(start, end).join('/');
        known.add(end === parts.length ? tail : `${tail}/`);
      }
    }
  }
  return known;
}

/** missingPaths names the paths in `tokens` that are neither output folders nor known. */
function missingPaths(tokens: readonly string[], known: Set<string>): string[] {
  return tokens.filter((token) => {
    // the client's import aliases (vite.config.ts): @/ is src/client/, @shared/ src/shared/
    const bare = token
      .replace(/^\.\//, '')
      .replace(/^@\//, 'src/client/')
      .replace(/^@shared\//, 'src/shared/');
    if (OUTPUT_DIRS.some((dir) => bare.startsWith(dir) || bare.includes(`/${dir}`))) return false;
    return !known.has(bare);
  });
}

/** engineTableTasks reads the backticked first column of the table headed "Task". */
function engineTableTasks(markdown: string): string[] {
  const lines = markdown.split('\n');
  const header = lines.findIndex((line) => /^\|\s*Task\s*\|/i.test(line));
  if (header < 0) return [];
  const names: string[] = [];
  for (const line of lines.slice(header + 2)) {
    if (!line.startsWith('|')) break;
    const first = line.split('|')[1] ?? '';
    const name = /^\s*`([^`]+)`\s*$/.exec(first)?.[1];
    names.push(name ?? first.trim());
  }
  return names;
}

/** glossaryDuplicates names the words (case-insensitive) that start more than one line. */
function glossaryDuplicates(markdown: string): string[] {
  const seen = new Set<string>();
  const twice = new Set<string>();
  for (const [, word] of markdown.matchAll(/^- \*\*([^*]+)\*\*/gm)) {
    const key = word.trim().toLowerCase();
    if (seen.has(key)) twice.add(key);
    seen.add(key);
  }
  return [...twice];
}

interface Decision {
  file: string;
  text: string;
}

/** statusOf is a decision's Status, from "Status:" to the end of its paragraph. */
function statusOf(text: string): string {
  const at = text.indexOf('Status:');
  if (at < 0) return '';
  const end = text.indexOf('\n\n', at);
  return text.slice(at, end < 0 ? undefined : end).replace(/\s+/g, ' ');
}

const numberOf = (file: string) => Number(/^(\d{3})/.exec(path.basename(file))?.[1]);

/** supersededNumbers lists the decisions a Status says it supersedes ("supersedes … 012, 060"). */
function supersededNumbers(status: string): number[] {
  const numbers: number[] = [];
  for (const [, clause] of status.matchAll(/\bsupersedes\b([^;()]*)/gi)) {
    for (const [n] of clause.matchAll(/\b\d{3}\b/g)) numbers.push(Number(n));
  }
  return numbers;
}

/** supersessionProblems lists supersessions not marked in the older record, and dead links. */
function supersessionProblems(decisions: readonly Decision[]): string[] {
  const byNumber = new Map(decisions.map((d) => [numberOf(d.file), d]));
  const files = new Set(decisions.map((d) => path.basename(d.file)));
  const problems: string[] = [];
  for (const decision of decisions) {
    const status = statusOf(decision.text);
    const newer = numberOf(decision.file);
    for (const n of supersededNumbers(status)) {
      const older = byNumber.get(n);
      if (!older) {
        problems.push(`${decision.file} supersedes ${n}, which does not exist`);
      } else if (!new RegExp(`superseded by \\[${newer}\\]`, 'i').test(statusOf(older.text))) {
        problems.push(`${older.file} is superseded by ${newer} but its Status does not say so`);
      }
    }
    for (const [, n, target] of status.matchAll(/superseded by \[(\d+)\]\(([^)]+)\)/gi)) {
      if (!files.has(target) || numberOf(target) !== Number(n)) {
        problems.push(`${decision.file} links "superseded by [${n}](${target})": no such file`);
      }
    }
  }
  return problems;
}

function gitFiles(): string[] {
  const out = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard'], {
    cwd: root,
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  // A file deleted but not yet committed is gone: only what is on disk counts.
  return out.split('\n').filter((file) => file && existsSync(path.join(root, file)));
}

function markdownFiles(dir: string): string[] {
  return readdirSync(path.join(root, dir), { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.md'))
    .map((file) => path.join(dir, file));
}

const read = (file: string) => readFileSync(path.join(root, file), 'utf8');

describe('each check fails on a broken input', () => {
  test('a removed file is missing; shorthand, folders and outputs are not', () => {
    const known = knownSuffixes(['src/client/lib/notify.ts', 'docs/engine.md']);
    const tokens = backtickedPaths(
      [
        'See `lib/notify.ts`, `src/client/lib/`, `docs/engine.md` and `dist/server/main.js`,',
        'but `src/server/modules/paging/page-timers.ts` is gone.',
        'Aliased: `@/lib/notify.ts`. Not paths: `/api/pages/ack/{token}`, `npm run test`, `Path=/`,',
        '`docs/decisions/NNN-title.md`,',
        '`https://example.com/x.json`, `a/b c.ts`.',
        '```',
        'src/inside-a-fence/ignored.ts',
        '```',
      ].join('\n'),
    );
    expect(tokens).toEqual([
      'lib/notify.ts',
      'src/client/lib/',
      'docs/engine.md',
      'dist/server/main.js',
      'src/server/modules/paging/page-timers.ts',
      '@/lib/notify.ts',
    ]);
    expect(missingPaths(tokens, known)).toEqual(['src/server/modules/paging/page-timers.ts']);
  });

  test('a table that lacks, adds or reorders a task differs from the list', () => {
    const table = (names: string[]) =>
      ['| Task | Module | What it does |', '|---|---|---|']
        .concat(names.map((n) => `| \`${n}\` | \`modules/x\` | something |`))
        .join('\n');
    expect(engineTableTasks(table(['a', 'b']))).toEqual(['a', 'b']);
    expect(engineTableTasks(table(['b', 'a']))).not.toEqual(['a', 'b']);
    expect(engineTableTasks(table(['a']))).not.toEqual(['a', 'b']);
    expect(engineTableTasks('no table here')).toEqual([]);
  });

  test('a word defined twice, in any case, is named', () => {
    const glossary = [
      '- **Repeat**: how many more times a policy runs.',
      '- **Alert**: one event a tool sent.',
      '- **repeat**: the same alert again.',
    ].join('\n');
    expect(glossaryDuplicates(glossary)).toEqual(['repeat']);
    expect(glossaryDuplicates('- **Repeat**: one.\n- **Repeated alert**: two.')).toEqual([]);
  });

  test('an unmarked supersession and a dead "superseded by" link are named', () => {
    const decision = (file: string, status: string): Decision => ({
      file,
      text: `# ${file}\n\nDate: 2026-11-25 · Status: ${status}\n\n## Context\n`,
    });
    const newer = decision('110-new.md', 'accepted (supersedes the token part of 012)');
    expect(supersessionProblems([decision('012-old.md', 'accepted'), newer])).toEqual([
      '012-old.md is superseded by 110 but its Status does not say so',
    ]);
    const marked = decision('012-old.md', 'partly superseded by [110](110-new.md): the token');
    expect(supersessionProblems([marked, newer])).toEqual([]);
    const dead = decision('012-old.md', 'superseded by [110](110-gone.md)');
    expect(supersessionProblems([dead, newer])).toEqual([
      '012-old.md links "superseded by [110](110-gone.md)": no such file',
    ]);
  });
});

describe('the docs', () => {
  test('every backticked path names a file or folder that exists', () => {
    const known = knownSuffixes(gitFiles());
    const files = ['README.md', ...markdownFiles('docs')];
    const missing = files.flatMap((file) =>
      missingPaths(backtickedPaths(read(file)), known).map((token) => `${file}: \`${token}\``),
    );
    expect(missing).toEqual([]);
    // not vacuous: the docs do name paths
    expect(files.flatMap((file) => backtickedPaths(read(file))).length).toBeGreaterThan(50);
  });

  test("docs/engine.md's table names the engine's tasks, in the order they run", () => {
    expect(engineTableTasks(read('docs/engine.md'))).toEqual(ENGINE_TASKS.map((t) => t.name));
  });

  test('the glossary defines each word once', () => {
    const glossary = read('docs/glossary.md');
    expect(glossary.match(/^- \*\*/gm)?.length ?? 0).toBeGreaterThan(50);
    expect(glossaryDuplicates(glossary)).toEqual([]);
  });

  test('a superseded decision says so, and links to a record that exists', () => {
    const decisions = readdirSync(path.join(root, 'docs/decisions'))
      .filter((file) => /^\d{3}-.*\.md$/.test(file))
      .map((file) => ({ file, text: read(path.join('docs/decisions', file)) }));
    expect(decisions.some((d) => supersededNumbers(statusOf(d.text)).length > 0)).toBe(true);
    expect(supersessionProblems(decisions)).toEqual([]);
  });
});
