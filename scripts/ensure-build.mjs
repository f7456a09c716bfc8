// `npm start` (and the operator scripts) build only when they must (decision 227): when the build is
// missing, or when a source file, the build's configuration or the package files are newer than its
// oldest output. A built tree without its sources (the production install: `npm install --omit=dev`
// with dist/ copied in, as the Dockerfile does) starts as it is, without the build tools.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** What the build reads: the sources (tests aside) and every file that changes what it writes. */
const INPUTS = [
  'src',
  'index.html',
  'public',
  'vite.config.ts',
  'tsconfig.json',
  'scripts/build-server.mjs',
  'package.json',
  'package-lock.json',
];
/** What the build writes: each must exist and be newer than every input. */
const OUTPUTS = ['dist/client/index.html', 'dist/server/main.js'];

/** newestInput walks the inputs and returns the newest one's modification time and path. */
function newestInput() {
  let newest = { mtimeMs: 0, file: '' };
  const visit = (file) => {
    if (!existsSync(file)) return;
    const stat = statSync(file);
    if (stat.isDirectory()) {
      for (const entry of readdirSync(file)) visit(path.join(file, entry));
    } else if (stat.mtimeMs > newest.mtimeMs && !/\.test\.tsx?$/.test(file)) {
      newest = { mtimeMs: stat.mtimeMs, file: path.relative(root, file) };
    }
  };
  for (const input of INPUTS) visit(path.join(root, input));
  return newest;
}

/** whyBuild names the reason a build is needed, or returns null when the build is current. */
function whyBuild() {
  const outputs = OUTPUTS.map((file) => path.join(root, file));
  const missing = outputs.find((file) => !existsSync(file));
  if (missing) return `${path.relative(root, missing)} is missing`;
  if (!existsSync(path.join(root, 'src'))) return null; // a built tree without its sources
  const oldestOutput = Math.min(...outputs.map((file) => statSync(file).mtimeMs));
  const newest = newestInput();
  return newest.mtimeMs > oldestOutput ? `${newest.file} changed since the last build` : null;
}

const reason = whyBuild();
if (reason) {
  const viteInstalled = existsSync(path.join(root, 'node_modules', 'vite', 'package.json'));
  if (!viteInstalled) {
    process.stderr.write(
      `Baton needs a build (${reason}), and the build tools are not installed: run \`npm install\` (with the development packages) and \`npm run build\`, or copy a built dist/ here.\n`,
    );
    process.exit(1);
  }
  process.stdout.write(`Building Baton: ${reason}.\n`);
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  const build = spawnSync(npm, ['run', 'build', '--silent'], { cwd: root, stdio: 'inherit' });
  if (build.status !== 0) process.exit(build.status ?? 1);
}
