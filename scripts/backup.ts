// `scripts/backup [--database-url URL] [--out FILE]`: saves the cloud's store into one file while the
// cloud keeps running (PostgreSQL: pg_dump; SQLite: the online backup API). See docs/ARCHITECTURE.md.
import path from 'node:path';
import { DEFAULT_DATABASE_URL } from '@deposito/cloud/env';
import { databaseTargetOrExit } from './support/database-target';
import { parseArgsOrExit } from './support/script-args';
import { BackupError, backupStore } from '@deposito/cloud/store/backup';

const USAGE = `Usage: scripts/backup [--database-url URL] [--out FILE]

Saves the store of DATABASE_URL (or --database-url; default ${DEFAULT_DATABASE_URL}) into FILE
(default deposito-<UTC time>.backup). Safe while the cloud runs. Restore with scripts/restore.`;

const { values } = parseArgsOrExit(
  {
    options: {
      'database-url': { type: 'string' },
      out: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  },
  USAGE,
);

if (values.help) {
  console.log(USAGE);
  process.exit(0);
}

const target = databaseTargetOrExit(values['database-url']);
const stamp = new Date().toISOString().replace(/[:.]/g, '-');
const out = path.resolve(values.out ?? `deposito-${stamp}.backup`);

try {
  const report = await backupStore(target, out);
  console.log(
    `✓ ${report.kind} store saved to ${report.file} (${report.bytes} bytes, ${report.bookings} paid bookings)`,
  );
} catch (error) {
  console.error(`✗ Backup failed: ${error instanceof BackupError ? error.message : String(error)}`);
  process.exit(1);
}
