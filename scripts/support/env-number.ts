// The start scripts' numbers from the environment (ports, the cluster's size), read before anything
// is built or started: `PORT=abc npm start` built the web app, then started a cloud on port NaN.

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
  const value = Number(raw.trim());
  if (/^\d{1,15}$/.test(raw.trim()) && value >= range.min && value <= range.max) return value;
  process.stderr.write(
    `[${program}] ${name} must be a whole number from ${range.min} to ${range.max}, not ${JSON.stringify(raw)}\n`,
  );
  process.exit(1);
}
