// `npm start`: build when the build is missing or older than the sources (ensure-build.mjs), then run
// the built server in this same process.
//
// npm does not pass a SIGTERM on to the script it runs (npm 11: npm and its shell end, the script
// runs on). So Baton watches its parent: once npm is gone it shuts down as if it had received the
// SIGTERM itself (decision 227). A service manager or a container should run `node
// dist/server/main.js` directly, as the Dockerfile does.
import module from 'node:module';
import './ensure-build.mjs';

// The compiled code of the server and its packages, kept between starts (Node 22.1 and newer; in
// NODE_COMPILE_CACHE's folder, else the system's temporary one): a start skips compiling what an
// earlier one compiled (issue 36's cold start, docs/performance.md).
module.enableCompileCache?.();

const parent = process.ppid;
const watch = setInterval(() => {
  if (process.ppid === parent) return;
  clearInterval(watch);
  process.kill(process.pid, 'SIGTERM');
}, 500);
watch.unref();

await import('../dist/server/main.js');
