/** One thing the cloud needs before it should receive traffic; throws (or rejects) when it is not there. */
export interface ReadinessCheck {
  name: string;
  check(): Promise<void>;
}

export type CheckState = 'ok' | 'failing' | 'timeout';

export interface ReadinessReport {
  ready: boolean;
  checks: Record<string, CheckState>;
}

/** A load balancer's probe gives up after a few seconds; answering 503 first tells it why. */
export const READINESS_CHECK_TIMEOUT_MS = 2_000;

/** Runs every check at once, each bounded by the timeout, and says whether all passed. */
export async function checkReadiness(
  checks: readonly ReadinessCheck[],
  timeoutMs: number = READINESS_CHECK_TIMEOUT_MS,
): Promise<ReadinessReport & { failures: Array<{ name: string; error: unknown }> }> {
  const failures: Array<{ name: string; error: unknown }> = [];
  const states = await Promise.all(
    checks.map(async ({ name, check }): Promise<[string, CheckState]> => {
      let timer: NodeJS.Timeout | undefined;
      const timedOut = new Promise<'timeout'>((resolve) => {
        timer = setTimeout(() => resolve('timeout'), timeoutMs);
      });
      try {
        const outcome = await Promise.race([check().then(() => 'ok' as const), timedOut]);
        if (outcome === 'timeout') failures.push({ name, error: new Error(`no answer in ${timeoutMs} ms`) });
        return [name, outcome];
      } catch (error) {
        failures.push({ name, error });
        return [name, 'failing'];
      } finally {
        clearTimeout(timer);
      }
    }),
  );
  return { ready: failures.length === 0, checks: Object.fromEntries(states), failures };
}
