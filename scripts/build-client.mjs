// Builds the browser's code for production whatever NODE_ENV the shell has: Vite bundles React's
// development build when NODE_ENV=development (249.5 kB of initial JS instead of about 135), and
// `npm start` builds with the server's environment (decision 237). `--outDir DIR` builds elsewhere
// than dist/client (the size test builds into a folder of its own).
//
// Then each script and style sheet under assets/ gets its Brotli and gzip copies beside it
// (`x.js.br`, `x.js.gz`), which the server sends to a browser that accepts them (decision 276):
// compressed once here, never per request.
import { readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import { build } from 'vite';

process.env.NODE_ENV = 'production';
const at = process.argv.indexOf('--outDir');
const outDir = at === -1 ? undefined : process.argv[at + 1];

await build({
  mode: 'production',
  logLevel: 'warn',
  ...(outDir ? { build: { outDir, emptyOutDir: true } } : {}),
});

const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);
const assets = path.join(outDir ?? 'dist/client', 'assets');
const files = (await readdir(assets)).filter((f) => /\.(js|css)$/.test(f));
await Promise.all(
  files.map(async (f) => {
    const file = path.join(assets, f);
    const raw = await readFile(file);
    const params = {
      [zlib.constants.BROTLI_PARAM_QUALITY]: zlib.constants.BROTLI_MAX_QUALITY,
      [zlib.constants.BROTLI_PARAM_SIZE_HINT]: raw.length,
    };
    await writeFile(`${file}.br`, await brotli(raw, { params }));
    await writeFile(`${file}.gz`, await gzip(raw, { level: zlib.constants.Z_BEST_COMPRESSION }));
  }),
);
