import { fileURLToPath } from 'node:url';

/** The repository's root folder, for the scripts whatever their working directory. */
export const REPO_ROOT = fileURLToPath(new URL('../..', import.meta.url)).replace(/\/$/, '');
