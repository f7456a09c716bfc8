// The client's JavaScript sizes, gzip: what index.html loads up front (the first screen's budget,
// which `npm test` keeps, decision 237) and all of it. Read by the size test and the bench.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';

/** the first screen's JavaScript may weigh this much, gzip (issue 31) */
export const INITIAL_JS_BUDGET_BYTES = 150_000;

export interface ChunkSize {
  file: string;
  gzipBytes: number;
}

const gzipSize = (file: string) => gzipSync(readFileSync(file)).length;

/** initialJsGzip sums the gzip sizes of the scripts and module preloads index.html names. */
export function initialJsGzip(clientDir: string): { bytes: number; chunks: ChunkSize[] } {
  const html = readFileSync(path.join(clientDir, 'index.html'), 'utf8');
  const files = new Set<string>();
  for (const m of html.matchAll(/<script[^>]*\bsrc="([^"]+\.js)"/g)) files.add(m[1]);
  for (const m of html.matchAll(/<link[^>]*rel="modulepreload"[^>]*href="([^"]+\.js)"/g)) {
    files.add(m[1]);
  }
  const chunks = [...files]
    .map((file) => ({ file, gzipBytes: gzipSize(path.join(clientDir, file.replace(/^\//, ''))) }))
    .sort((a, b) => b.gzipBytes - a.gzipBytes);
  return { bytes: chunks.reduce((sum, c) => sum + c.gzipBytes, 0), chunks };
}

/** totalJsGzip sums the gzip sizes of every JavaScript file the build wrote under assets/. */
export function totalJsGzip(clientDir: string): { bytes: number; files: number } {
  const assets = path.join(clientDir, 'assets');
  const files = readdirSync(assets).filter((f) => f.endsWith('.js'));
  return {
    bytes: files.reduce((sum, f) => sum + gzipSize(path.join(assets, f)), 0),
    files: files.length,
  };
}

/** kB formats bytes as the bench and the test print them: 135.4 kB. */
export const kB = (bytes: number) => `${(bytes / 1000).toFixed(1)} kB`;
