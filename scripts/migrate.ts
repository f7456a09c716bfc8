// npm run db:migrate — apply committed migrations to the configured database (also done at start).
import { resolveSecrets } from '../src/server/bootstrap';
import { loadConfig } from '../src/server/core/config';
import { openDatabase } from '../src/server/db/client';

const { config } = await resolveSecrets(loadConfig());
const database = await openDatabase(config);
try {
  await database.migrate();
  process.stdout.write(`Migrated ${database.location}\n`);
} finally {
  await database.close();
}
