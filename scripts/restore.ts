// `scripts/restore --from FILE [--database-url URL] [--replace]`: puts a backup made by scripts/backup
// in place. PostgreSQL: into an existing, empty database. SQLite: with the cloud stopped.
import path from 'node:path';
import { DEFAULT_DATABASE_URL } from '@deposito/cloud/env';
import { databaseTargetOrExit } from './support/database-target';
import { parseArgsOrExit } from './support/script-args';
import { BackupError, restoreStore } from '@deposito/cloud/store/backup';

const USAGE = `Usage: scripts/restore --from FILE [--database-url URL] [--replace]

Restores FILE (made by scripts/backup) as the store of DATABASE_URL (or --database-url; default
${DEFAULT_DATABASE_URL}).
  PostgreSQL: the database must exist and be empty: createdb deposito_restored, then point
              DATABASE_URL at it and start the cloud.
  SQLite:     stop the cloud first; an existing database file is replaced only with --replace.`;

const { values } = parseArgsOrExit(
  {
    options: {
      from: { type: 'string' },
      'database-url': { type: 'string' },
      replace: { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
  },
  USAGE,
);

if (values.help) {
  console.log(USAGE);
  process.exit(0);
}
if (!values.from) {
  process.stderr.write(`error: which backup to restore? (--from FILE)\n\n${USAGE}\n`);
  process.exit(2);
}

const target = databaseTargetOrExit(values['database-url']);

try {
  const report = await restoreStore(path.resolve(values.from), target, { replace: values.replace ?? false });
  console.log(`✓ ${report.kind} store restored from ${report.file} (${report.bookings} paid bookings)`);
  console.log('  Start the cloud on it; it applies any newer migrations itself.');
} catch (error) {
  console.error(`✗ Restore failed: ${error instanceof BackupError ? error.message : String(error)}`);
  process.exit(1);
}
