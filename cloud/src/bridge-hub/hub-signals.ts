import type { Logger } from 'pino';
import { z } from 'zod';
import type { DatabaseTarget } from '../env';
import { PostgresNotificationListener } from '../store/bridge-notifications';
import type { Store } from '../store/store';

// Wake-up calls between the hubs of all cloud processes. They carry ids only: the outbox table is
// the truth, a signal just says "look now". PostgreSQL: NOTIFY on the schema's channel, one LISTEN
// session per process. SQLite (one process): in-process only. Every signal is also handled locally
// at once, so the process that wrote a command does not wait for the round trip.

export const hubSignalSchema = z.discriminatedUnion('kind', [
  /** A command was added to the outbox: the process holding the location's socket sends it. */
  z.object({ kind: z.literal('command'), location: z.string(), id: z.string() }),
  /** A command was settled: requests waiting for it answer. */
  z.object({ kind: z.literal('result'), id: z.string() }),
  /** The hub gave up on a command: waiting requests answer, the process holding the bridge tells it. */
  z.object({ kind: z.literal('cancel'), location: z.string(), id: z.string() }),
  /** A second bridge asks for the location: its holder pings its socket and drops it if it is silent. */
  z.object({ kind: z.literal('probe'), location: z.string() }),
  /** A bridge connected to `processId`: any other process still holding a socket for it drops it. */
  z.object({ kind: z.literal('connected'), location: z.string(), processId: z.string() }),
  /** The location's token changed: its connected bridge is closed as unauthorized. */
  z.object({ kind: z.literal('revoked'), location: z.string() }),
]);
export type HubSignal = z.infer<typeof hubSignalSchema>;

const envelopeSchema = z.object({ from: z.string(), signal: hubSignalSchema });

export interface HubSignalBusOptions {
  store: Store;
  database: DatabaseTarget;
  processId: string;
  logger: Logger;
  onSignal(signal: HubSignal): void;
  /** Notifications may have been missed (the LISTEN session was down): re-read the outbox. */
  onResync(): void;
}

export class HubSignalBus {
  private listener: PostgresNotificationListener | null = null;

  constructor(private readonly options: HubSignalBusOptions) {}

  async start(): Promise<void> {
    const { database, store, logger } = this.options;
    if (database.dialect !== 'postgres' || this.listener) return;
    const channel = await store.bridge.notificationChannel();
    this.listener = new PostgresNotificationListener({
      connectionString: database.connectionString,
      channel,
      onNotification: (payload) => this.receive(payload),
      onReconnect: () => {
        logger.info('bridge hub notifications listening again');
        this.options.onResync();
      },
      onError: (error) => logger.warn({ err: error }, 'bridge hub notification session failed; retrying'),
    });
    await this.listener.start();
  }

  async stop(): Promise<void> {
    const listener = this.listener;
    this.listener = null;
    await listener?.stop();
  }

  /** Handles the signal here at once and tells the other processes (PostgreSQL). */
  async publish(signal: HubSignal): Promise<void> {
    setImmediate(() => this.options.onSignal(signal));
    if (this.options.database.dialect !== 'postgres') return;
    try {
      await this.options.store.bridge.notify(JSON.stringify({ from: this.options.processId, signal }));
    } catch (error) {
      // The sweep re-reads the outbox, so a lost notification only delays delivery.
      this.options.logger.warn({ err: error, signal }, 'bridge hub could not notify other processes');
    }
  }

  private receive(payload: string): void {
    let parsed;
    try {
      parsed = envelopeSchema.safeParse(JSON.parse(payload));
    } catch {
      parsed = null;
    }
    if (!parsed?.success) {
      this.options.logger.warn({ payload: payload.slice(0, 200) }, 'unreadable bridge hub notification');
      return;
    }
    // Our own notifications come back too; they were handled when published.
    if (parsed.data.from === this.options.processId) return;
    this.options.onSignal(parsed.data.signal);
  }
}
