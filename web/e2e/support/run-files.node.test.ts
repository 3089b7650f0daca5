import { mkdirSync, mkdtempSync, readdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { removeOldRunFiles, RUN_FILES_KEPT_MS, RUN_FILES_PREFIX } from './run-files';

const HOUR = 60 * 60 * 1000;

describe('an end-to-end run, before it starts', () => {
  let folder = '';
  afterEach(() => rmSync(folder, { recursive: true, force: true }));

  /** A file or folder in `folder` whose last change was `ageMs` before `now`. */
  function leave(name: string, now: number, ageMs: number, kind: 'file' | 'folder' = 'file'): void {
    const path = join(folder, name);
    if (kind === 'folder') {
      mkdirSync(path);
      writeFileSync(join(path, 'message.eml'), 'Subject: booked');
    } else {
      writeFileSync(path, 'SQLite format 3');
    }
    const at = (now - ageMs) / 1000;
    utimesSync(path, at, at);
  }

  it('removes the databases, e-mails and data folders of runs over a day old, and only those', () => {
    folder = mkdtempSync(join(tmpdir(), 'run-files-test-'));
    const now = Date.now();
    leave(`${RUN_FILES_PREFIX}41234-1.db`, now, 3 * 24 * HOUR);
    leave(`${RUN_FILES_PREFIX}41234-1.db-wal`, now, 3 * 24 * HOUR);
    leave(`${RUN_FILES_PREFIX}41234-1-outbox`, now, RUN_FILES_KEPT_MS + HOUR, 'folder');
    leave(`${RUN_FILES_PREFIX}start-2`, now, 2 * 24 * HOUR, 'folder');
    // A run of this morning (its failure may still be read) and one that is running now.
    leave(`${RUN_FILES_PREFIX}51234-3.db`, now, 5 * HOUR);
    leave(`${RUN_FILES_PREFIX}cluster-4`, now, 1000, 'folder');
    // Not a run's: another program's file, however old.
    leave('deposito-backup.db', now, 30 * 24 * HOUR);

    const removed = removeOldRunFiles(folder, now);

    expect(removed.sort()).toEqual([
      `${RUN_FILES_PREFIX}41234-1-outbox`,
      `${RUN_FILES_PREFIX}41234-1.db`,
      `${RUN_FILES_PREFIX}41234-1.db-wal`,
      `${RUN_FILES_PREFIX}start-2`,
    ]);
    expect(readdirSync(folder).sort()).toEqual([
      'deposito-backup.db',
      `${RUN_FILES_PREFIX}51234-3.db`,
      `${RUN_FILES_PREFIX}cluster-4`,
    ]);
  });
});
