import { sql, type ExpressionBuilder, type Kysely } from 'kysely';
import type { Database } from './database';
import { toDate } from './values';

/** One booking e-mail to send: written with the status change that calls for it. */
export interface OutboxEmail {
  id: number;
  transactionId: string;
  kind: string;
  createdAt: Date;
  attempts: number;
}

/** A sender's lease on the e-mails it claims. */
export interface EmailLease {
  /** The sender: its cloud process's id, as recorded in `cloud_processes` while it runs. */
  by: string;
  until: Date;
  /**
   * Another sender's lease ending by this instant is void once that sender is no longer recorded as
   * running (it died, and its next life or another process removed it); a later one is kept (a
   * process starting may not be recorded yet).
   */
  goneSendersUntil: Date;
}

export interface EmailOutboxRepository {
  /**
   * E-mails due by `now`, not sent and not leased to another sender, each leased to the caller (a
   * sender that dies leaves them to the next one once its lease ends or is void). Only those of one
   * booking when `transactionId` is given.
   */
  claimDue(now: Date, lease: EmailLease, limit: number, transactionId?: string): Promise<OutboxEmail[]>;
  markSent(id: number, now: Date, messageId: string): Promise<void>;
  /** A failed attempt: tried again from `nextAttemptAt`. */
  markFailed(id: number, error: string, nextAttemptAt: Date): Promise<void>;
  /** Queues one e-mail on its own (a visitor's resend); the same booking and kind is queued once. */
  enqueue(email: { transactionId: string; kind: string; now: Date }): Promise<void>;
  /** E-mails not sent yet (metrics, tests, readiness). */
  unsentCount(): Promise<number>;
}

/** Queues a booking e-mail in the caller's transaction; the same booking and kind is queued once. */
export async function enqueueBookingEmail(
  trx: Kysely<Database>,
  email: { transactionId: string; kind: string; now: Date },
): Promise<void> {
  await trx
    .insertInto('email_outbox')
    .values({
      transaction_id: email.transactionId,
      kind: email.kind,
      created_at: email.now,
      next_attempt_at: email.now,
    })
    .onConflict((conflict) => conflict.columns(['transaction_id', 'kind']).doNothing())
    .execute();
}

export class KyselyEmailOutboxRepository implements EmailOutboxRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async enqueue(email: { transactionId: string; kind: string; now: Date }): Promise<void> {
    await enqueueBookingEmail(this.db, email);
  }

  async claimDue(
    now: Date,
    lease: EmailLease,
    limit: number,
    transactionId?: string,
  ): Promise<OutboxEmail[]> {
    const unleased = (eb: ExpressionBuilder<Database, 'email_outbox'>) =>
      eb.or([
        eb('claimed_until', 'is', null),
        eb('claimed_until', '<=', now),
        eb.and([
          eb('claimed_until', '<=', lease.goneSendersUntil),
          eb('claimed_by', '<>', lease.by),
          sql<boolean>`not exists (select 1 from cloud_processes where process_id = ${eb.ref('claimed_by')})`,
        ]),
      ]);
    let query = this.db
      .selectFrom('email_outbox')
      .select(['id'])
      .where('sent_at', 'is', null)
      .where('next_attempt_at', '<=', now)
      .where(unleased)
      .orderBy('id')
      .limit(limit);
    if (transactionId) query = query.where('transaction_id', '=', transactionId);
    const candidates = await query.execute();
    const claimed: OutboxEmail[] = [];
    for (const { id } of candidates) {
      // The lease is taken by a conditional update: of two senders, one wins each row.
      const row = await this.db
        .updateTable('email_outbox')
        .set({ claimed_until: lease.until, claimed_by: lease.by })
        .where('id', '=', id)
        .where('sent_at', 'is', null)
        .where(unleased)
        .returning(['id', 'transaction_id', 'kind', 'created_at', 'attempts'])
        .executeTakeFirst();
      if (row) {
        claimed.push({
          id: Number(row.id),
          transactionId: row.transaction_id,
          kind: row.kind,
          createdAt: toDate(row.created_at),
          attempts: row.attempts,
        });
      }
    }
    return claimed;
  }

  async markSent(id: number, now: Date, messageId: string): Promise<void> {
    await this.db
      .updateTable('email_outbox')
      .set({ sent_at: now, message_id: messageId, claimed_until: null, claimed_by: null, last_error: null })
      .where('id', '=', id)
      .execute();
  }

  async markFailed(id: number, error: string, nextAttemptAt: Date): Promise<void> {
    await this.db
      .updateTable('email_outbox')
      .set((eb) => ({
        attempts: eb('attempts', '+', 1),
        last_error: error.slice(0, 500),
        next_attempt_at: nextAttemptAt,
        claimed_until: null,
        claimed_by: null,
      }))
      .where('id', '=', id)
      .execute();
  }

  async unsentCount(): Promise<number> {
    const row = await this.db
      .selectFrom('email_outbox')
      .select((eb) => eb.fn.countAll().as('n'))
      .where('sent_at', 'is', null)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }
}
