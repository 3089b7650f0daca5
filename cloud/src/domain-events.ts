import type { Logger } from 'pino';
import type { BookingRecord } from './store/booking.repository';

/**
 * What happened to bookings, for the parts of the cloud that react to it (the bridge hub programs
 * PINs on the controller, mail goes out, …) without the booking service knowing about them.
 */
export type DomainEvent =
  | { type: 'booking.held'; booking: BookingRecord }
  | { type: 'booking.confirmed'; booking: BookingRecord }
  | { type: 'booking.scheduled'; booking: BookingRecord }
  | { type: 'booking.cancelled'; booking: BookingRecord }
  | { type: 'booking.expired'; transactionId: string }
  /** An operator moved the booking off `fromLocker` (its PIN must leave that locker for its new one). */
  | { type: 'booking.moved'; booking: BookingRecord; fromLocker: number }
  /** Deleted by an operator's cleanup before its period was over: its PIN may still be on its lockers. */
  | { type: 'booking.deleted'; transactionId: string; locationKey: string; lockerNumbers: number[] };

export type DomainEventType = DomainEvent['type'];
type EventOf<Type extends DomainEventType> = Extract<DomainEvent, { type: Type }>;
type Handler<Type extends DomainEventType> = (event: EventOf<Type>) => void | Promise<void>;

/**
 * A small in-process publisher. Handlers run after the change is committed; a failing handler is
 * logged and never undoes the change or stops other handlers.
 */
export class DomainEvents {
  readonly #handlers = new Map<DomainEventType, Set<Handler<DomainEventType>>>();
  readonly #running = new Set<Promise<void>>();

  constructor(private readonly logger: Logger) {}

  /** Subscribes to one event type; returns the unsubscribe function. */
  on<Type extends DomainEventType>(type: Type, handler: Handler<Type>): () => void {
    const handlers = this.#handlers.get(type) ?? new Set();
    handlers.add(handler as unknown as Handler<DomainEventType>);
    this.#handlers.set(type, handlers);
    return () => handlers.delete(handler as unknown as Handler<DomainEventType>);
  }

  emit(event: DomainEvent): void {
    for (const handler of this.#handlers.get(event.type) ?? []) {
      try {
        const result = handler(event);
        if (result instanceof Promise) {
          const running = result
            .catch((error: unknown) =>
              this.logger.error({ err: error, event: event.type }, 'event handler failed'),
            )
            .finally(() => this.#running.delete(running));
          this.#running.add(running);
        }
      } catch (error) {
        this.logger.error({ err: error, event: event.type }, 'event handler failed');
      }
    }
  }

  /** Resolves once every handler started so far, and those they started, have finished. */
  async idle(): Promise<void> {
    while (this.#running.size > 0) await Promise.all([...this.#running]);
  }
}
