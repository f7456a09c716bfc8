import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Node, SourceFile } from 'typescript/unstable/ast';
import { isFunctionLikeDeclaration } from 'typescript/unstable/ast/is';
import { createVirtualFileSystem } from 'typescript/unstable/fs';
import { API } from 'typescript/unstable/sync';
import { describe, expect, test } from 'vitest';
import { sourceFiles } from '../setup/import-graph';

/*
 * Files split by job (issue 31, decision 244): a file under src/ has at most 600 lines and a
 * function in src/server at most 120, so the next feature has one obvious place. The schema,
 * the message texts and the help prose are long by nature and listed below with their reasons.
 * A function is measured from its first line (its doc comment aside) to its last, whatever its
 * form: declaration, function expression, arrow, method, accessor or constructor. Test files are
 * held to the file limit only: a suite's `describe` is one long function by design.
 */

const root = path.resolve(import.meta.dirname, '../..');
const FILE_LIMIT = 600;
const FUNCTION_LIMIT = 120;

/** Files over FILE_LIMIT for good, each with its reason. */
const LONG_BY_NATURE: Record<string, string> = {
  'src/server/db/schema.ts': 'the drizzle schema: every table in one file, as drizzle-kit reads it',
  'src/server/modules/notifications/messages.ts':
    'the message texts: every email, SMS and chat wording side by side, for one voice',
};

/** Folders whose files are prose, not code: a help article may be as long as its subject. */
const PROSE_FOLDERS: Record<string, string> = {
  'src/client/features/help/articles/': 'the help prose: one article a file',
};

interface Measure {
  /** Where: the file, or the file, line and function name. */
  where: string;
  lines: number;
}

/** lineCount returns the number of lines of `text`, as `wc -l` counts a file ending in a newline. */
function lineCount(text: string): number {
  return text.split('\n').length - (text.endsWith('\n') ? 1 : 0);
}

/** longFiles returns the files, of (path, text) pairs, over FILE_LIMIT lines. */
function longFiles(files: [string, string][]): Measure[] {
  return files
    .map(([file, text]) => ({ where: file, lines: lineCount(text) }))
    .filter((measure) => measure.lines > FILE_LIMIT);
}

/** functionName names a function by its own name, or the variable, property or call it is in. */
function functionName(node: Node, file: SourceFile): string {
  const named = (n: Node | undefined) =>
    n && 'name' in n && n.name ? (n.name as Node).getText(file) : undefined;
  const own = named(node) ?? named(node.parent);
  if (own) return own;
  const call = node.parent;
  if (call && 'expression' in call && call.expression) {
    return `(a function passed to ${(call.expression as Node).getText(file)})`;
  }
  return '(an anonymous function)';
}

/**
 * longFunctions returns the functions in `files` (path to text) over FUNCTION_LIMIT lines, each
 * as `path:line name`. TypeScript parses the files alone: no imports, no lib, no type check.
 */
function longFunctions(files: Record<string, string>): Measure[] {
  const base = '/size-limits';
  const names = Object.keys(files);
  const virtual: Record<string, string> = {
    [`${base}/tsconfig.json`]: JSON.stringify({
      compilerOptions: { noResolve: true, noLib: true, types: [], noEmit: true, jsx: 'preserve' },
      files: names.map((name) => `${base}/${name}`),
    }),
  };
  for (const name of names) virtual[`${base}/${name}`] = files[name];
  const api = new API({ cwd: base, fs: createVirtualFileSystem(virtual) });
  try {
    const project = api
      .updateSnapshot({ openProjects: [`${base}/tsconfig.json`] })
      .getProjects()[0];
    const found: Measure[] = [];
    for (const name of names) {
      const file = project.program.getSourceFile(`${base}/${name}`);
      if (!file) throw new Error(`TypeScript did not read ${name}`);
      const lineOf = (position: number) => file.getLineAndCharacterOfPosition(position).line + 1;
      const visit = (node: Node): void => {
        if (isFunctionLikeDeclaration(node) && node.body) {
          const first = lineOf(node.getStart(file));
          const lines = lineOf(node.end) - first + 1;
          if (lines > FUNCTION_LIMIT) {
            found.push({ where: `${name}:${first} ${functionName(node, file)}`, lines });
          }
        }
        node.forEachChild(visit);
      };
      visit(file);
    }
    return found;
  } finally {
    api.close();
  }
}

/** report says what to split, longest first, one line each. */
function report(measures: Measure[]): string[] {
  return [...measures]
    .sort((a, b) => b.lines - a.lines)
    .map((measure) => `${measure.where}: ${measure.lines} lines`);
}

/** overLimit heads a failed limit's report. */
const overLimit = (limit: number) => `over ${limit} lines; split each by job (decision 244)`;

/** filesWithText lists the .ts and .tsx files under `folder`, relative to the root, with their text. */
function filesWithText(folder: string): [string, string][] {
  return sourceFiles(path.join(root, folder))
    .map((file) => path.relative(root, file).split(path.sep).join('/'))
    .map((file): [string, string] => [file, readFileSync(path.join(root, file), 'utf8')]);
}

const isTest = (file: string) => /\.test\.tsx?$/.test(file);
const isProse = (file: string) =>
  Object.keys(PROSE_FOLDERS).some((folder) => file.startsWith(folder));
const fileAllowed = (file: string) => file in LONG_BY_NATURE || isProse(file);
const body = (count: number) => `${Array.from({ length: count - 2 }, () => '  x();').join('\n')}\n`;

describe('the size limits find what is too long', () => {
  test('a file of 601 lines is too long; one of 600 is not', () => {
    const files: [string, string][] = [
      ['a.ts', 'x();\n'.repeat(601)],
      ['b.ts', 'x();\n'.repeat(600)],
    ];
    expect(longFiles(files)).toEqual([{ where: 'a.ts', lines: 601 }]);
  });

  test('a function of each form over 120 lines is found, with its name and line', () => {
    const found = longFunctions({
      'forms.ts': [
        `export function declared() {\n${body(121)}}`,
        `const arrow = async () => {\n${body(121)}};`,
        `const expression = function () {\n${body(121)}};`,
        `class Service {\n  method() {\n${body(121)}  }\n}`,
        `app.register(async (instance) => {\n${body(121)}});`,
        `export function short() {\n${body(120)}}`,
      ].join('\n'),
    });
    expect(found.map((f) => `${f.where} ${f.lines}`)).toEqual([
      'forms.ts:1 declared 121',
      'forms.ts:122 arrow 121',
      'forms.ts:243 expression 121',
      'forms.ts:365 method 121',
      'forms.ts:487 (a function passed to app.register) 121',
    ]);
  });

  test('the report names each offender with its line count, longest first', () => {
    expect(
      report([
        { where: 'src/a.ts', lines: 601 },
        { where: 'src/b.ts', lines: 700 },
      ]),
    ).toEqual(['src/b.ts: 700 lines', 'src/a.ts: 601 lines']);
  });
});

describe('files are split by job', () => {
  const files = filesWithText('src');
  const serverCode = Object.fromEntries(
    files.filter(([file]) => file.startsWith('src/server/') && !isTest(file)),
  );
  const functions = longFunctions(serverCode);
  const inFile = (where: string) => where.slice(0, where.indexOf(':'));

  test(`no file under src/ is over ${FILE_LIMIT} lines but those listed`, () => {
    expect(files.length).toBeGreaterThan(300);
    const offenders = longFiles(files).filter((measure) => !fileAllowed(measure.where));
    expect(report(offenders), overLimit(FILE_LIMIT)).toEqual([]);
  });

  test(`no function in src/server is over ${FUNCTION_LIMIT} lines but in files being split`, () => {
    expect(Object.keys(serverCode).length).toBeGreaterThan(100);
    expect(report(functions), overLimit(FUNCTION_LIMIT)).toEqual([]);
  });

  test('every listed file is still over a limit: a split file leaves its list', () => {
    const long = new Set(longFiles(files).map((measure) => measure.where));
    const withLongFunctions = new Set(functions.map((measure) => inFile(measure.where)));
    const stale = Object.keys(LONG_BY_NATURE).filter(
      (file) => !long.has(file) && !withLongFunctions.has(file),
    );
    expect(stale, 'within the limits now: take these off their list').toEqual([]);
  });
});
