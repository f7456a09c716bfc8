// Builds the browser's code for production whatever NODE_ENV the shell has: Vite bundles React's
// development build when NODE_ENV=development (249.5 kB of initial JS instead of about 135), and
// `npm start` builds with the server's environment (decision 237). `--outDir DIR` builds elsewhere
// than dist/client (the size test builds into a folder of its own).
import { build } from 'vite';

process.env.NODE_ENV = 'production';
const at = process.argv.indexOf('--outDir');
const outDir = at === -1 ? undefined : process.argv[at + 1];

await build({
  mode: 'production',
  logLevel: 'warn',
  ...(outDir ? { build: { outDir, emptyOutDir: true } } : {}),
});
