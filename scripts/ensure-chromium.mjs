// Browser tests drive Debian's Chromium: its chromium-headless-shell package, the old headless
// Chromium Playwright runs for headless tests, or its chromium package (chromium-paths.json, in
// that order; playwright.config.ts takes the first it finds, decision 230). When neither is there,
// install the headless shell where we can (as root), otherwise stop with the one command that
// installs it. Never downloads Playwright's own browsers.
import { execSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import chromiumPaths from './chromium-paths.json' with { type: 'json' };

const candidates = process.env.CHROMIUM_PATH ? [process.env.CHROMIUM_PATH] : chromiumPaths;
if (candidates.some((p) => existsSync(p))) process.exit(0);

const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
const hasApt = existsSync('/usr/bin/apt-get');
if (isRoot && hasApt && !process.env.CHROMIUM_PATH) {
  process.stdout.write(
    "Chromium is missing; installing Debian's chromium-headless-shell package...\n",
  );
  execSync(
    'apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends chromium-headless-shell',
    { stdio: 'inherit' },
  );
  if (candidates.some((p) => existsSync(p))) process.exit(0);
}
process.stderr.write(
  `Browser tests need Chromium at ${candidates.join(' or ')}. Install it with:\n\n  sudo apt-get install -y chromium-headless-shell\n\n(or set CHROMIUM_PATH to another Chromium binary)\n`,
);
process.exit(1);
