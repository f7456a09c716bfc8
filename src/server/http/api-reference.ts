import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { gunzipSync } from 'node:zlib';
import type { FastifyApiReferenceOptions } from '@scalar/fastify-api-reference';

/*
 * The API reference page's two bodies, made by Scalar's Fastify plugin in a worker thread
 * (decision 282). The plugin carries Scalar's 4.9 MB script inside its own module as a string
 * literal: imported by the server, its source and that string held some 19 MB of the heap for the
 * life of every process, whether anyone opened the reference or not. The worker imports it, asks
 * it for the page and the script as a browser would, hands both back and ends, so its heap goes
 * with it; the server keeps the page and the script's gzip (1.3 MB) from the first request on.
 */

/** ReferenceBodies: the reference page's HTML and its script, gzip-compressed. */
export interface ReferenceBodies {
  page: string;
  scriptGzip: Buffer;
}

/** ReferenceOptions: the plugin's options (a route prefix and Scalar's configuration). */
export type ReferenceOptions = FastifyApiReferenceOptions & { routePrefix: `/${string}` };

/** The worker: CommonJS, given the modules' file addresses, since it has no module of its own. */
const WORKER = `
const { parentPort, workerData } = require('node:worker_threads');
const { gzipSync } = require('node:zlib');
(async () => {
  const { default: Fastify } = await import(workerData.fastify);
  const { default: reference } = await import(workerData.reference);
  const app = Fastify();
  await app.register(reference, workerData.options);
  const prefix = workerData.options.routePrefix;
  const page = await app.inject({ method: 'GET', url: prefix + '/' });
  const script = await app.inject({ method: 'GET', url: prefix + '/js/scalar.js' });
  if (page.statusCode !== 200 || script.statusCode !== 200) {
    throw new Error('Scalar answered ' + page.statusCode + ' and ' + script.statusCode);
  }
  const scriptGzip = gzipSync(script.rawPayload, { level: 6 });
  parentPort.postMessage({ page: page.body, scriptGzip }, [scriptGzip.buffer]);
})().catch((err) => { throw err; });
`;

/** moduleAddress: the file address of a package's entry, as this module resolves it. */
function moduleAddress(name: string): string {
  return pathToFileURL(createRequire(import.meta.url).resolve(name)).href;
}

/** renderReference runs the worker once and answers what the plugin would have served. */
export function renderReference(options: ReferenceOptions): Promise<ReferenceBodies> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(WORKER, {
      eval: true,
      workerData: {
        fastify: moduleAddress('fastify'),
        reference: moduleAddress('@scalar/fastify-api-reference'),
        options,
      },
    });
    worker.once('message', (bodies: { page: string; scriptGzip: Uint8Array }) => {
      const gzip = bodies.scriptGzip;
      resolve({
        page: bodies.page,
        scriptGzip: Buffer.from(gzip.buffer, gzip.byteOffset, gzip.byteLength),
      });
      void worker.terminate();
    });
    worker.once('error', reject);
    worker.once('exit', (code) => reject(new Error(`the API reference worker ended (${code})`)));
  });
}

/**
 * referenceBodies: the bodies, made on the first call and kept; a failed attempt is forgotten so
 * that the next request tries again.
 */
export function referenceBodies(options: ReferenceOptions): () => Promise<ReferenceBodies> {
  let made: Promise<ReferenceBodies> | null = null;
  return () => {
    made ??= renderReference(options).catch((err) => {
      made = null;
      throw err;
    });
    return made;
  };
}

const plainScripts = new WeakMap<ReferenceBodies, Buffer>();

/**
 * plainScript: the script uncompressed, for the rare client that does not take gzip. Unpacked at
 * the first such request and kept beside the bodies (4.9 MB, outside the JavaScript heap): unpacked
 * and decoded for every request, each cost the server some 130 ms of processor, on a route anyone
 * may call.
 */
export function plainScript(bodies: ReferenceBodies): Buffer {
  let plain = plainScripts.get(bodies);
  if (!plain) {
    plain = gunzipSync(bodies.scriptGzip);
    plainScripts.set(bodies, plain);
  }
  return plain;
}
