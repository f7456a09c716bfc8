// Browser tests drive Debian's Chromium: its chromium-headless-shell package, the old headless
// Chromium Playwright runs for headless tests, or its chromium package (chromium-paths.json, in
// that order; playwright.config.ts takes the first it finds, decision 230). push.spec.ts needs
// the chromium package itself, whose new headless mode has a notification tray (decision 266;
// CHROMIUM_FULL_PATH picks another binary). What is missing is installed where we can (as root),
// otherwise this stops with the one command that installs it. Never downloads Playwright's own
// browsers.
import { execSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import chromiumPaths from './chromium-paths.json' with { type: 'json' };

const candidates = process.env.CHROMIUM_PATH ? [process.env.CHROMIUM_PATH] : chromiumPaths;
const fullChromium = process.env.CHROMIUM_FULL_PATH ?? '/usr/bin/chromium';
const ready = () => candidates.some((p) => existsSync(p)) && existsSync(fullChromium);
if (ready()) process.exit(0);

const packages = [
  ...(candidates.some((p) => existsSync(p)) || process.env.CHROMIUM_PATH
    ? []
    : ['chromium-headless-shell']),
  ...(existsSync(fullChromium) || process.env.CHROMIUM_FULL_PATH ? [] : ['chromium']),
];
const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
const hasApt = existsSync('/usr/bin/apt-get');
if (isRoot && hasApt && packages.length > 0) {
  process.stdout.write(`Chromium is missing; installing Debian's ${packages.join(' and ')}...\n`);
  execSync(
    `apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends ${packages.join(' ')}`,
    { stdio: 'inherit' },
  );
  if (ready()) process.exit(0);
}
process.stderr.write(
  `Browser tests need Chromium at ${candidates.join(' or ')}, and the full Chromium at ${fullChromium}. Install them with:\n\n  sudo apt-get install -y chromium-headless-shell chromium\n\n(or set CHROMIUM_PATH and CHROMIUM_FULL_PATH to other Chromium binaries)\n`,
);
process.exit(1);
