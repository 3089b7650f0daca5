import pg from 'pg';

// A dedicated PostgreSQL session per cloud process that LISTENs on the bridge hubs' channel, so a
// command written by one process reaches the process holding the bridge's socket, and a result
// written there wakes the HTTP request waiting on another. NOTIFY itself goes through the store's
// pool (BridgeRepository.notify). Notifications sent while this session is down are lost, which is
// why the hub's periodic sweep re-reads the outbox; `onReconnect` lets it catch up at once.

export interface NotificationListenerOptions {
  connectionString: string;
  channel: string;
  onNotification(payload: string): void;
  /** Called when a retry is listening again (notifications may have been missed meanwhile). */
  onReconnect?(): void;
  onError?(error: unknown): void;
  /** Delay before reconnecting after a failure. */
  retryMs?: number;
}

export class PostgresNotificationListener {
  private client: pg.Client | null = null;
  private stopped = false;
  private retryTimer: NodeJS.Timeout | null = null;

  constructor(private readonly options: NotificationListenerOptions) {}

  /** Connects and LISTENs; a failure is reported to `onError` and retried until `stop`. */
  async start(): Promise<void> {
    this.stopped = false;
    try {
      await this.connect();
    } catch (error) {
      this.options.onError?.(error);
      this.scheduleRetry();
    }
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.retryTimer) clearTimeout(this.retryTimer);
    this.retryTimer = null;
    const client = this.client;
    this.client = null;
    if (client) await client.end().catch(() => undefined);
  }

  get listening(): boolean {
    return this.client !== null;
  }

  private async connect(): Promise<void> {
    const client = new pg.Client({ connectionString: this.options.connectionString });
    client.on('notification', (message) => {
      if (message.channel === this.options.channel && message.payload !== undefined) {
        this.options.onNotification(message.payload);
      }
    });
    client.on('error', (error) => this.lost(client, error));
    client.on('end', () => this.lost(client, new Error('notification session ended')));
    try {
      await client.connect();
      await client.query(`LISTEN ${pg.escapeIdentifier(this.options.channel)}`);
    } catch (error) {
      await client.end().catch(() => undefined);
      throw error;
    }
    if (this.stopped) {
      await client.end().catch(() => undefined);
      return;
    }
    this.client = client;
  }

  private lost(client: pg.Client, error: unknown): void {
    if (this.client !== client) return;
    this.client = null;
    void client.end().catch(() => undefined);
    if (this.stopped) return;
    this.options.onError?.(error);
    this.scheduleRetry();
  }

  private scheduleRetry(): void {
    if (this.stopped || this.retryTimer) return;
    this.retryTimer = setTimeout(() => {
      this.retryTimer = null;
      this.connect().then(
        () => {
          if (this.client) this.options.onReconnect?.();
        },
        (error: unknown) => {
          this.options.onError?.(error);
          this.scheduleRetry();
        },
      );
    }, this.options.retryMs ?? 1_000);
  }
}
