/**
 * The repository's root folder, for the scripts whatever their working directory: the cloud's own
 * (`cloud/src/env.ts`, where the default database and `.env` are found from it), so it is defined once.
 */
export { REPO_ROOT } from '@deposito/cloud/env';
