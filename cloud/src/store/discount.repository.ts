import type { Kysely } from 'kysely';
import { HOLD_BOOKING_STATUSES } from '@deposito/protocol';
import type { Database, DiscountRow } from './database';
import { isStale, toEditStamp, type EditIntent, type EditStamp, type StaleEdit } from './edit-stamp';
import type { SqlDialect } from './migrate';
import { toBoolean, toDate, toDateOrNull } from './values';
import { writeTransaction } from './write-transaction';

export interface DiscountRecord {
  code: string;
  description: string;
  /** Exactly one of percent and amountCents is set. */
  percent: number | null;
  amountCents: number | null;
  /** Calendar days `yyyy-MM-dd`, inclusive; null leaves that end open. */
  validFrom: string | null;
  validTo: string | null;
  usableOnce: boolean;
  minDays: number | null;
  usedAt: Date | null;
  /** The booking that claimed a single-use code. */
  usedBy: string | null;
  createdAt: Date;
  edit: EditStamp;
}

export type NewDiscount = Omit<DiscountRecord, 'usedAt' | 'usedBy' | 'createdAt' | 'edit'>;

/** The outcome of an operator's edit of a code; on any refusal nothing changed. */
export type UpdateDiscountResult =
  { ok: true } | { ok: false; reason: 'not_found' | 'already_exists' | 'in_use' } | StaleEdit;

export type DeleteDiscountResult = 'deleted' | 'not_found' | 'in_use';

export interface DiscountRepository {
  get(code: string): Promise<DiscountRecord | null>;
  list(): Promise<DiscountRecord[]>;
  /** Inserts a code; false when the code already exists. `createdBy`: the operator's e-mail. */
  create(discount: NewDiscount, now: Date, createdBy?: string): Promise<boolean>;
  delete(code: string): Promise<boolean>;
  /**
   * An operator's edit, in place and in one transaction: the terms change, usage (`used_at`,
   * `used_by`) stays, the version rises. Refused when the version read is stale, when a rename
   * targets an existing code, or when a rename would take the code from a live checkout.
   */
  update(code: string, next: NewDiscount, intent: EditIntent, now: Date): Promise<UpdateDiscountResult>;
  /** Deletes a code unless a live checkout (a booking in a hold status) carries it, atomically. */
  deleteUnlessInUse(code: string): Promise<DeleteDiscountResult>;
  /**
   * Claims a single-use code for a booking. Only one booking can ever hold the claim, even when
   * several try at once (a conditional update); claiming again for the same booking succeeds.
   */
  claim(code: string, transactionId: string, now: Date): Promise<boolean>;
  /** Gives back a claim a booking holds (it changed or dropped its code). */
  releaseClaim(code: string, transactionId: string): Promise<void>;
}

function toDiscount(row: DiscountRow): DiscountRecord {
  return {
    code: row.code,
    description: row.description,
    percent: row.percent,
    amountCents: row.amount_cents,
    validFrom: row.valid_from,
    validTo: row.valid_to,
    usableOnce: toBoolean(row.usable_once),
    minDays: row.min_days,
    usedAt: toDateOrNull(row.used_at),
    usedBy: row.used_by,
    createdAt: toDate(row.created_at),
    edit: toEditStamp(row),
  };
}

/** A booking still in checkout (unpaid hold) that carries the code. */
async function heldByCheckout(db: Kysely<Database>, code: string): Promise<boolean> {
  const row = await db
    .selectFrom('bookings')
    .select('transaction_id')
    .where('discount_code', '=', code)
    .where('status', 'in', [...HOLD_BOOKING_STATUSES])
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

export class KyselyDiscountRepository implements DiscountRepository {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly dialect: SqlDialect,
  ) {}

  async get(code: string): Promise<DiscountRecord | null> {
    const row = await this.db.selectFrom('discounts').selectAll().where('code', '=', code).executeTakeFirst();
    return row ? toDiscount(row) : null;
  }

  async list(): Promise<DiscountRecord[]> {
    return (await this.db.selectFrom('discounts').selectAll().orderBy('code').execute()).map(toDiscount);
  }

  async create(discount: NewDiscount, now: Date, createdBy?: string): Promise<boolean> {
    const result = await this.db
      .insertInto('discounts')
      .values({
        code: discount.code,
        description: discount.description,
        percent: discount.percent,
        amount_cents: discount.amountCents,
        valid_from: discount.validFrom,
        valid_to: discount.validTo,
        usable_once: discount.usableOnce,
        min_days: discount.minDays,
        created_at: now,
        updated_by: createdBy ?? null,
        updated_at: now,
      })
      .onConflict((oc) => oc.column('code').doNothing())
      .executeTakeFirst();
    return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
  }

  async delete(code: string): Promise<boolean> {
    const result = await this.db.deleteFrom('discounts').where('code', '=', code).executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  update(code: string, next: NewDiscount, intent: EditIntent, now: Date): Promise<UpdateDiscountResult> {
    return writeTransaction(this.db, this.dialect, async (trx): Promise<UpdateDiscountResult> => {
      let query = trx.selectFrom('discounts').selectAll().where('code', '=', code);
      if (this.dialect === 'postgres') query = query.forUpdate();
      const row = await query.executeTakeFirst();
      if (!row) return { ok: false, reason: 'not_found' };
      if (isStale(intent, row)) return { ok: false, reason: 'stale', current: toEditStamp(row) };
      if (next.code !== code) {
        if (await heldByCheckout(trx, code)) return { ok: false, reason: 'in_use' };
        const taken = await trx
          .selectFrom('discounts')
          .select('code')
          .where('code', '=', next.code)
          .executeTakeFirst();
        if (taken) return { ok: false, reason: 'already_exists' };
      }
      await trx
        .updateTable('discounts')
        .set((eb) => ({
          code: next.code,
          description: next.description,
          percent: next.percent,
          amount_cents: next.amountCents,
          valid_from: next.validFrom,
          valid_to: next.validTo,
          usable_once: next.usableOnce,
          min_days: next.minDays,
          version: eb('version', '+', 1),
          updated_by: intent.actor,
          updated_at: now,
        }))
        .where('code', '=', code)
        .execute();
      return { ok: true };
    });
  }

  deleteUnlessInUse(code: string): Promise<DeleteDiscountResult> {
    return writeTransaction(this.db, this.dialect, async (trx): Promise<DeleteDiscountResult> => {
      let query = trx.selectFrom('discounts').select('code').where('code', '=', code);
      if (this.dialect === 'postgres') query = query.forUpdate();
      if (!(await query.executeTakeFirst())) return 'not_found';
      if (await heldByCheckout(trx, code)) return 'in_use';
      await trx.deleteFrom('discounts').where('code', '=', code).execute();
      return 'deleted';
    });
  }

  async claim(code: string, transactionId: string, now: Date): Promise<boolean> {
    const result = await this.db
      .updateTable('discounts')
      .set({ used_at: now, used_by: transactionId })
      .where('code', '=', code)
      .where('usable_once', '=', true)
      .where((eb) => eb.or([eb('used_at', 'is', null), eb('used_by', '=', transactionId)]))
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  async releaseClaim(code: string, transactionId: string): Promise<void> {
    await this.db
      .updateTable('discounts')
      .set({ used_at: null, used_by: null })
      .where('code', '=', code)
      .where('used_by', '=', transactionId)
      .execute();
  }
}
