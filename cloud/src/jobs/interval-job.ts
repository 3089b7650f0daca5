import type { Logger } from 'pino';
import type { BackgroundJob } from './background-job';

/**
 * A background job that runs `pass` every `intervalMs` while the server is up: a slow pass is
 * never overlapped by the next (that tick is skipped), a failing one is logged as `failure` and
 * the next tick tries again, and stopping waits for the pass under way.
 */
export function intervalJob(options: {
  intervalMs: number;
  pass: () => Promise<unknown>;
  logger: Logger;
  failure: string;
}): BackgroundJob {
  let timer: NodeJS.Timeout | null = null;
  let running: Promise<unknown> | null = null;
  const tick = () => {
    if (running) return;
    running = options
      .pass()
      .catch((error: unknown) => options.logger.error({ err: error }, options.failure))
      .finally(() => {
        running = null;
      });
  };
  return {
    start() {
      if (timer) return;
      timer = setInterval(tick, options.intervalMs);
      // A pending tick never keeps the process alive by itself.
      timer.unref();
    },
    async stop() {
      if (timer) clearInterval(timer);
      timer = null;
      await running;
    },
  };
}
