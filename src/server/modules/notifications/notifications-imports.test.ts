import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { expect, test } from 'vitest';

/**
 * The engine calls notifications, never the other way round (decision 185): nothing in this
 * module imports from src/server/engine, so the catalog and the outbox stay usable by every
 * module (and by the next ones: incidents, alerts) without the engine's tasks.
 */

const self = new URL(import.meta.url).pathname;
const here = dirname(self);
const engine = resolve(here, '../../engine');

/** importsOf lists the relative module specifiers of a source text (static, re-export, dynamic). */
function importsOf(source: string): string[] {
  const specifiers = [
    ...source.matchAll(/\b(?:import|export)\b[^'"`;]*?\bfrom\s*['"]([^'"]+)['"]/g),
    ...source.matchAll(/\bimport\s*\(\s*['"]([^'"]+)['"]\s*\)/g),
    ...source.matchAll(/^\s*import\s*['"]([^'"]+)['"]/gm),
  ].map((m) => m[1]);
  return specifiers.filter((s) => s.startsWith('.'));
}

test('importsOf finds static, type-only, re-exported and dynamic imports', () => {
  const source = [
    "import { a } from '../../engine/tasks';",
    "import type {\n  B,\n} from './b';",
    "export { c } from '../c';",
    "const d = await import('./d');",
    "import './e';",
    "import { f } from 'vitest';",
  ].join('\n');
  expect(importsOf(source)).toEqual(['../../engine/tasks', './b', '../c', './d', './e']);
});

test('no file of the notifications module imports from the engine', () => {
  // This file is left out: its own sample source above names the engine.
  const files = readdirSync(here).filter((f) => /\.tsx?$/.test(f) && join(here, f) !== self);
  expect(files).toContain('messages.ts');
  const breaches = files.flatMap((file) =>
    importsOf(readFileSync(join(here, file), 'utf8'))
      .filter((spec) => !relative(engine, resolve(here, spec)).startsWith('..'))
      .map((spec) => `${file} imports ${spec}`),
  );
  expect(breaches).toEqual([]);
});
