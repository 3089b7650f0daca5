// Which database the backup and restore scripts work on.
import {
  DEFAULT_DATABASE_URL,
  loadDotEnvFile,
  parseDatabaseUrl,
  type DatabaseTarget,
} from '@deposito/cloud/env';

/**
 * `--database-url`, else DATABASE_URL (from .env too), else the cloud's default; a value that is no
 * database URL ends the script with status 2.
 */
export function databaseTargetOrExit(option: string | undefined): DatabaseTarget {
  loadDotEnvFile();
  const url = option ?? process.env.DATABASE_URL ?? DEFAULT_DATABASE_URL;
  const target = parseDatabaseUrl(url);
  if (!target) {
    console.error(`✗ Not a database URL: ${url}`);
    process.exit(2);
  }
  return target;
}
