import type { Kysely } from 'kysely';
import type { Database, DiscountRow } from './database';
import { toBoolean, toDate, toDateOrNull } from './values';

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
}

export type NewDiscount = Omit<DiscountRecord, 'usedAt' | 'usedBy' | 'createdAt'>;

export interface DiscountRepository {
  get(code: string): Promise<DiscountRecord | null>;
  list(): Promise<DiscountRecord[]>;
  /** Inserts a code; false when the code already exists. */
  create(discount: NewDiscount, now: Date): Promise<boolean>;
  delete(code: string): Promise<boolean>;
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
  };
}

export class KyselyDiscountRepository implements DiscountRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async get(code: string): Promise<DiscountRecord | null> {
    const row = await this.db.selectFrom('discounts').selectAll().where('code', '=', code).executeTakeFirst();
    return row ? toDiscount(row) : null;
  }

  async list(): Promise<DiscountRecord[]> {
    return (await this.db.selectFrom('discounts').selectAll().orderBy('code').execute()).map(toDiscount);
  }

  async create(discount: NewDiscount, now: Date): Promise<boolean> {
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
      })
      .onConflict((oc) => oc.column('code').doNothing())
      .executeTakeFirst();
    return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
  }

  async delete(code: string): Promise<boolean> {
    const result = await this.db.deleteFrom('discounts').where('code', '=', code).executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
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
