// Browser tests drive Debian's Chromium. When it is missing, install it where we can (as root),
// otherwise stop with the one command that installs it. Never downloads Playwright's own browsers.
import { execSync } from 'node:child_process';
import { existsSync } from 'node:fs';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
if (existsSync(CHROMIUM)) process.exit(0);

const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
const hasApt = existsSync('/usr/bin/apt-get');
if (isRoot && hasApt) {
  process.stdout.write("Chromium is missing; installing Debian's chromium package...\n");
  execSync('apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium', {
    stdio: 'inherit',
  });
  if (existsSync(CHROMIUM)) process.exit(0);
}
process.stderr.write(
  `Browser tests need Chromium at ${CHROMIUM}. Install it with:\n\n  sudo apt-get install -y chromium\n\n(or set CHROMIUM_PATH to another Chromium binary)\n`,
);
process.exit(1);
