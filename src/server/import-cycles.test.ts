import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { importCycles, importGraph, importsOf } from '../../tests/setup/import-graph';

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
      .filter(([file]) => file.startsWith('src/server/') && !file.endsWith('.test.ts'))
      .filter(([, targets]) => targets.includes('src/server/app.ts'))
      .map(([file]) => file);
    expect(importersOfApp).toEqual(['src/server/main.ts']);
  });

  it('the engine is the loop only: it imports no module, and the modules own their tasks (decision 238)', () => {
    const engineFiles = [...graph.keys()].filter(
      (file) => file.startsWith('src/server/engine/') && !file.endsWith('.test.ts'),
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
