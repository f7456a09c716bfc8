// Bundles the server into dist/server/main.js, and the operator's tools (migrate, seed, keys:rotate,
// backup, restore, import) into dist/tools/, so a production install runs them without the build tools
// (decision 227); dependencies stay in node_modules.
import { build } from 'esbuild';

const common = {
  bundle: true,
  platform: 'node',
  target: 'node22',
  format: 'esm',
  packages: 'external',
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
