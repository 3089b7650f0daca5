import { readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

// Each end-to-end run keeps its demo database, e-mails and data folder in the temporary folder, so
// a failed run can be looked at afterwards. Nothing else removed them: every `npm test` left another
// set behind. A run now removes those of runs more than a day old (never a running one's: the
// longest run takes minutes) and keeps the recent ones for whoever is reading a failure.

/** Every end-to-end run's files in the temporary folder start with this. */
export const RUN_FILES_PREFIX = 'deposito-e2e-';

/** How old a run's files are before a later run removes them. */
export const RUN_FILES_KEPT_MS = 24 * 60 * 60 * 1000;

/**
 * Removes the files and folders in `folder` named with `RUN_FILES_PREFIX` whose last change is older
 * than `keptMs`; answers the names it removed. One that cannot be read or removed is left as it is.
 */
export function removeOldRunFiles(
  folder: string = tmpdir(),
  now: number = Date.now(),
  keptMs: number = RUN_FILES_KEPT_MS,
): string[] {
  const removed: string[] = [];
  for (const name of readdirSync(folder)) {
    if (!name.startsWith(RUN_FILES_PREFIX)) continue;
    const path = join(folder, name);
    try {
      if (now - statSync(path).mtimeMs <= keptMs) continue;
      rmSync(path, { recursive: true, force: true });
      removed.push(name);
    } catch {
      // Another run removed it first, or it is not ours to remove: leave it.
    }
  }
  return removed;
}

/**
 * The path prefix of this run's files (`<tmp>/deposito-e2e-<name>-<ms>`), chosen once by the main
 * process, which also removes the old runs' files: Playwright loads the config again in each worker,
 * and the workers inherit the environment, so they use the same files and remove nothing.
 */
export function runFilesFor(name: string): string {
  if (!process.env.E2E_RUN_FILES) {
    removeOldRunFiles();
    process.env.E2E_RUN_FILES = join(tmpdir(), `${RUN_FILES_PREFIX}${name}-${Date.now()}`);
  }
  return process.env.E2E_RUN_FILES;
}
