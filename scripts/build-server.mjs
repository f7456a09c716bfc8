// Bundles the server into dist/server/main.js, and the operator's tools (migrate, seed, keys:rotate,
// backup, restore, import) into dist/tools/, so a production install runs them without the build tools
// (decision 227); dependencies stay in node_modules.
import { readFileSync } from 'node:fs';
import { build } from 'esbuild';

/**
 * Bundled in, not left to node_modules: Drizzle. Its package.json (179 kB) maps some 450 entry points,
 * and Node re-reads that map for each of the ~200 files of it the server loads, to learn each
 * one's module format: 0.25 s of a 2 s start (issue 36, docs/performance.md). Pure JavaScript, so
 * bundling it changes nothing else; the drivers it calls (pg, PGlite) stay in node_modules.
 */
const BUNDLED = ['drizzle-orm'];
const { dependencies } = JSON.parse(readFileSync('package.json', 'utf8'));
const external = Object.keys(dependencies)
  .filter((name) => !BUNDLED.includes(name))
  .flatMap((name) => [name, `${name}/*`]);

const common = {
  bundle: true,
  platform: 'node',
  target: 'node22',
  format: 'esm',
  external,
  sourcemap: true,
  logLevel: 'warning',
};

await build({ ...common, entryPoints: ['src/server/main.ts'], outfile: 'dist/server/main.js' });
await build({
  ...common,
  entryPoints: ['migrate', 'seed', 'rotate-keys', 'backup', 'restore', 'import'].map(
    (tool) => `scripts/${tool}.ts`,
  ),
  outdir: 'dist/tools',
});
