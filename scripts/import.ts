/**
 * npm run import -- <source> --plan|--apply [--api-url URL] [--file PATH] — import a team from
 * PagerDuty, Opsgenie, Grafana OnCall, a calendar file or a spreadsheet into a running Baton over
 * its API (issue 34, decision 268; docs/import/README.md). BATON_URL, BATON_TOKEN (an
 * administrator's write API token) and IMPORT_API_KEY (the source's key) come from the environment.
 */
import { readFile } from 'node:fs/promises';
import { runImport } from './import-command';

runImport(process.argv.slice(2), {
  env: process.env,
  readFile: (path) => readFile(path, 'utf8'),
  fetch,
  write: (text) => process.stdout.write(text),
})
  .then((code) => process.exit(code))
  .catch((err) => {
    process.stderr.write(`Import failed: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(1);
  });
