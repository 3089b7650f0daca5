/** Something that runs in the background while the server is up (expiry, schedulers, hubs). */
export interface BackgroundJob {
  start(): void;
  stop(): Promise<void> | void;
}
