// `npm test`: the lint, then the type check and the production build beside the unit and API
// suite, then the browser suite (`test:e2e`) on that build (decision 245).
//
// The type check (one core for about 30 s) and the build (about 25 s) do not wait for each other
// or for the unit suite: on the 2-core machine they fill the moments the suite's two workers
// leave a core idle (a PGlite file opening its database, a test waiting for a child process),
// which the chain `typecheck && test:unit && build` spent waiting. Their output is held and
// printed when they end, so it does not interleave with the suite's; the unit suite's goes
// straight to the terminal. Any step that fails stops the run before the browser suite, as the
// chain did, after every running step has ended and printed.
import { spawn } from 'node:child_process';

const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

/** run starts `npm run SCRIPT`; held: its output is gathered and printed once it ends. */
function run(script, { held = false } = {}) {
  const started = Date.now();
  const child = spawn(npm, ['run', '--silent', script], {
    stdio: held ? ['ignore', 'pipe', 'pipe'] : 'inherit',
  });
  let output = '';
  if (held) {
    child.stdout.on('data', (chunk) => {
      output += chunk;
    });
    child.stderr.on('data', (chunk) => {
      output += chunk;
    });
  }
  return new Promise((resolve) => {
    child.on('exit', (code, signal) => {
      const seconds = Math.round((Date.now() - started) / 1000);
      if (held) {
        process.stdout.write(
          `\n== ${script} (${seconds} s, ${code === 0 ? 'passed' : 'failed'})\n`,
        );
        if (output.trim() !== '')
          process.stdout.write(output.endsWith('\n') ? output : `${output}\n`);
      }
      resolve(code ?? (signal ? 1 : 0));
    });
  });
}

const failed = (codes) => codes.some((code) => code !== 0);

if ((await run('lint')) !== 0) process.exit(1);
const beside = [run('typecheck', { held: true }), run('build', { held: true })];
const unit = await run('test:unit');
if (failed([unit, ...(await Promise.all(beside))])) process.exit(1);
// the browser suite: `test:e2e` builds only when the build is older than the sources
// (ensure-build.mjs), so it runs on the build just made
process.exit(await run('test:e2e'));
