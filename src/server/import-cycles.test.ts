import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  type ImportGraph,
  importCycles,
  importGraph,
  importsOf,
  isTestCode,
  moduleGraph,
  stronglyConnected,
} from '../../tests/setup/import-graph';

const ROOT = path.resolve(import.meta.dirname, '../..');

describe('the server imports without a circle (decision 189)', () => {
  const graph = importGraph(ROOT, ['src/server']);

  it('has no import cycle, type-only imports included', () => {
    expect(graph.size).toBeGreaterThan(100);
    expect(importCycles(graph).map((cycle) => cycle.join(' → '))).toEqual([]);
  });

  it('routes and services take AppDeps from deps.ts, never from app.ts', () => {
    // Only start-up builds the app; tests and their helpers may too.
    const importersOfApp = [...graph]
      .filter(([file]) => file.startsWith('src/server/') && !isTestCode(file))
      .filter(([, targets]) => targets.includes('src/server/app.ts'))
      .map(([file]) => file);
    expect(importersOfApp).toEqual(['src/server/main.ts']);
  });

  it('the engine is the loop only: it imports no module, and the modules own their tasks (decision 238)', () => {
    const engineFiles = [...graph.keys()].filter(
      (file) => file.startsWith('src/server/engine/') && !isTestCode(file),
    );
    expect(engineFiles).toContain('src/server/engine/engine-loop.ts');
    const reachOut = engineFiles.flatMap((file) =>
      (graph.get(file) ?? [])
        .filter((t) => t.startsWith('src/server/modules/') || t === 'src/server/engine-tasks.ts')
        .map((t) => `${file} → ${t}`),
    );
    expect(reachOut).toEqual([]);
    expect(graph.get('src/server/modules/handoffs/handoff-flow-task.ts')).toContain(
      'src/server/engine/engine-task.ts',
    );
  });

  it('the pager has one home: nothing outside paging/ imports it but app.ts, which registers its routes (decision 239)', () => {
    const paging = 'src/server/modules/paging/';
    const reachIn = [...graph]
      .filter(([file]) => !file.startsWith(paging) && file !== 'src/server/app.ts')
      .flatMap(([file, targets]) =>
        targets.filter((t) => t.startsWith(paging)).map((t) => `${file} → ${t}`),
      );
    expect(reachIn).toEqual([]);
    expect(graph.get('src/server/app.ts')).toContain(`${paging}paging-routes.ts`);
  });
});

/**
 * A server module: a folder under `modules/`, or a folder or top-level file directly under
 * `src/server/` (core, db, http, crypto, engine, seed, maintenance, app.ts, main.ts ...). Tests
 * do not count, nor a suite's shared set-up beside them (`*.fixtures.ts`, decision 244).
 */
function serverModuleOf(file: string): string | null {
  if (!file.startsWith('src/server/') || isTestCode(file)) return null;
  const parts = file.slice('src/server/'.length).split('/');
  if (parts[0] === 'modules') return parts[1];
  return parts.length === 1 ? parts[0].replace(/\.ts$/, '') : parts[0];
}

/**
 * The circles between server modules that may stay, each with its reason (decision 242). A
 * circle has at most 3 modules; an entry with `until` is a known tangle, larger, that the named
 * work removes (remove the entry then: a listed circle that is gone fails the test too). None
 * has one now.
 */
const ALLOWED_CYCLES: { modules: string[]; reason: string; until?: string }[] = [
  {
    modules: ['handoffs', 'rotations', 'schedules'],
    reason:
      "one baton: a rotation is read with its latest handoff and next schedule entries, a scheduled rotation's engine task hands the baton over, and the handoffs and schedules read their rotation's row",
  },
  {
    modules: ['incidents', 'sms-replies'],
    reason:
      "a reply to a page's SMS acts on its incident, and the incident's messages name the reply codes (decision 201)",
  },
];

/** moduleCycleFailures says what is wrong with the module graph's circles, [] when nothing. */
function moduleCycleFailures(graph: ImportGraph, allowed = ALLOWED_CYCLES): string[] {
  const { modules, imports } = moduleGraph(graph, serverModuleOf);
  const failures: string[] = [];
  const key = (names: string[]) => [...names].sort().join(' ');
  const found = stronglyConnected(modules).map((component) => [...component].sort());
  for (const component of found) {
    const entry = allowed.find((e) => key(e.modules) === key(component));
    const problem = !entry
      ? 'is not in ALLOWED_CYCLES'
      : component.length > 3 && !entry.until
        ? 'has more than 3 modules'
        : null;
    if (!problem) continue;
    const inside = [...imports]
      .filter(([edge]) => {
        const [from, to] = edge.split(' → ');
        return component.includes(from) && component.includes(to);
      })
      .map(([edge, files]) => `  ${edge}: ${files.join(', ')}`);
    failures.push(
      `circle of ${component.length} modules ${problem}: ${component.join(', ')}\n${inside.join('\n')}`,
    );
  }
  for (const entry of allowed) {
    if (!found.some((component) => key(component) === key(entry.modules))) {
      failures.push(`ALLOWED_CYCLES lists a circle that is gone: ${key(entry.modules)}`);
    }
  }
  return failures;
}

describe('server modules import in layers (decision 242)', () => {
  const graph = importGraph(ROOT, ['src/server']);

  it('every circle between modules is listed with its reason, and every listed one exists', () => {
    expect(moduleCycleFailures(graph)).toEqual([]);
  });

  it('the layers below the modules import no module: core, crypto, db, http, engine', () => {
    const below = ['core', 'crypto', 'db', 'http', 'engine'];
    const upward = [...graph]
      .filter(([file]) => below.includes(serverModuleOf(file) ?? ''))
      .flatMap(([file, targets]) =>
        targets
          .filter((t) => {
            const to = serverModuleOf(t);
            return to !== null && !below.includes(to);
          })
          .map((t) => `${file} → ${t}`),
      );
    expect(upward).toEqual([]);
  });

  it('core imports nothing of the server but types of db and crypto', () => {
    const reach = [...graph]
      .filter(([file]) => serverModuleOf(file) === 'core')
      .flatMap(([file, targets]) =>
        targets
          .filter((t) => t.startsWith('src/server/') && !t.startsWith('src/server/core/'))
          .map((t) => `${file} → ${t}`),
      );
    expect(reach).toEqual([
      'src/server/core/config.ts → src/server/db/client.ts',
      'src/server/core/deps.ts → src/server/crypto/field-crypto.ts',
      'src/server/core/deps.ts → src/server/db/client.ts',
    ]);
  });

  it('a new back edge between modules fails, naming the imports that make the circle', () => {
    const withBackEdge = new Map(graph);
    const users = 'src/server/modules/users/user-repository.ts';
    withBackEdge.set(users, [
      ...(graph.get(users) ?? []),
      'src/server/modules/sessions/session-service.ts',
    ]);
    const failures = moduleCycleFailures(withBackEdge);
    expect(failures).toHaveLength(1);
    expect(failures[0]).toMatch(/^circle of 2 modules is not in ALLOWED_CYCLES: sessions, users/);
    expect(failures[0]).toContain(
      'users → sessions: src/server/modules/users/user-repository.ts → src/server/modules/sessions/session-service.ts',
    );
  });

  it('a listed circle that no longer exists fails, so the list stays true', () => {
    const gone = { modules: ['help', 'settings'], reason: 'made up' };
    expect(moduleCycleFailures(graph, [...ALLOWED_CYCLES, gone])).toEqual([
      'ALLOWED_CYCLES lists a circle that is gone: help settings',
    ]);
  });
});

describe('importsOf', () => {
  it('reads every kind of import and re-export, type-only ones too', () => {
    const source = [
      "import { a } from './a';",
      "import type { B } from '../b';",
      'import {',
      '  c,',
      '  type D,',
      "} from './c-and-d';",
      "import './side-effect';",
      "export { e } from './e';",
      "export * from './f';",
      "export type { G } from './g';",
      "const h = await import('./h');",
      "type I = typeof import('./i');",
      "import x from 'fastify';",
    ].join('\n');
    expect(importsOf(source)).toEqual(
      expect.arrayContaining([
        './a',
        '../b',
        './c-and-d',
        './side-effect',
        './e',
        './f',
        './g',
        './h',
        './i',
        'fastify',
      ]),
    );
    expect(importsOf(source)).toHaveLength(10);
  });

  it('does not read an import in a comment', () => {
    expect(
      importsOf("// import { a } from './a';\n/* import b from './b'; */\nconst c = 1;"),
    ).toEqual([]);
  });

  it("keeps a string holding '//' from hiding the import after it", () => {
    expect(importsOf("const url = 'http://x';\nimport { a } from './a';")).toEqual(['./a']);
  });
});

describe('importCycles', () => {
  it('finds a circle, however long, and a file that imports itself', () => {
    const graph = new Map([
      ['a.ts', ['b.ts']],
      ['b.ts', ['c.ts', 'd.ts']],
      ['c.ts', ['a.ts']],
      ['d.ts', []],
      ['e.ts', ['e.ts']],
    ]);
    expect(importCycles(graph)).toEqual([
      ['a.ts', 'b.ts', 'c.ts', 'a.ts'],
      ['e.ts', 'e.ts'],
    ]);
  });

  it('finds none in a graph where imports run one way', () => {
    const graph = new Map([
      ['app.ts', ['deps.ts', 'routes.ts']],
      ['routes.ts', ['deps.ts']],
      ['deps.ts', []],
    ]);
    expect(importCycles(graph)).toEqual([]);
  });
});
