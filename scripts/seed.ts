// npm run db:seed — put the demo team into an empty database (start-up does this in demo mode).
import { createCipher, resolveSecrets } from '../src/server/bootstrap';
import { systemClock } from '../src/server/core/clock';
import { loadConfig } from '../src/server/core/config';
import { countRows, openDatabase } from '../src/server/db/client';
import { seedDemoData } from '../src/server/seed/demo-seed';

const { config } = await resolveSecrets(loadConfig());
const database = await openDatabase(config);
try {
  await database.migrate();
  if ((await countRows(database.db, 'users')) > 0) {
    process.stdout.write('The database already has users; nothing seeded.\n');
  } else {
    const cipher = createCipher(config);
    await seedDemoData({
      db: database.db,
      cipher,
      clock: systemClock,
      domain: config.companyDomain,
    });
    process.stdout.write(`Seeded the demo team into ${database.location}\n`);
  }
} finally {
  await database.close();
}
