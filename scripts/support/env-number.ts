import { wholeNumberVar } from '@deposito/cloud/env-values';

// The start scripts' numbers from the environment (ports, the cluster's size), read before anything
// is built or started: `PORT=abc npm start` built the web app, then started a cloud on port NaN.
// The same rule and words as the cloud's own variables (cloud/src/env-values.ts).

/**
 * The whole number in the environment variable `name`, from `min` to `max`, or `fallback` when it is
 * unset or blank. Anything else ends the program with one line saying what was expected and got.
 */
export function wholeNumberFromEnv<Fallback extends number | undefined>(
  program: string,
  name: string,
  range: { min: number; max: number },
  fallback: Fallback,
  env: NodeJS.ProcessEnv = process.env,
): number | Fallback {
  const raw = env[name];
  if (raw === undefined || raw.trim() === '') return fallback;
  const read = wholeNumberVar(range.min, range.max).safeParse(raw);
  if (read.success) return read.data;
  process.stderr.write(`[${program}] ${name}: ${read.error.issues[0]?.message}\n`);
  process.exit(1);
}
