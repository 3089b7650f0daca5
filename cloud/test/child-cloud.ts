// A cloud run as a child process of a test or a benchmark, which ends it with a signal.

/**
 * On SIGTERM (or any of `signals`, each once) the cloud stops, its store is closed, and the process
 * exits with 0, so the parent sees a clean end.
 */
export function exitWhenSignalled(
  cloud: { stop(): Promise<unknown> },
  store: { close(): Promise<unknown> },
  signals: readonly NodeJS.Signals[] = ['SIGTERM'],
): void {
  const stop = async () => {
    await cloud.stop();
    await store.close();
    process.exit(0);
  };
  for (const signal of signals) process.once(signal, () => void stop());
}
