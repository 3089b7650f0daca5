import type { Kysely } from 'kysely';
import type { Database } from './database';
import { toDate, toDateOrNull } from './values';

/** A private link as stored: its token's hash, never the token. */
export interface BookingLinkRecord {
  tokenHash: string;
  transactionId: string;
  createdAt: Date;
  expiresAt: Date;
  revokedAt: Date | null;
}

export interface BookingLinkRepository {
  add(link: Omit<BookingLinkRecord, 'revokedAt'>): Promise<void>;
  /** The link with this hash, whatever its state (the caller judges expiry and revocation). */
  find(tokenHash: string): Promise<BookingLinkRecord | null>;
  /** Every link of a booking, newest first. */
  ofBooking(transactionId: string): Promise<BookingLinkRecord[]>;
  /** Revokes one link (by hash) or, without a hash, every link of the booking; how many changed. */
  revoke(transactionId: string, at: Date, tokenHash?: string): Promise<number>;
}

export class KyselyBookingLinkRepository implements BookingLinkRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async add(link: Omit<BookingLinkRecord, 'revokedAt'>): Promise<void> {
    await this.db
      .insertInto('booking_links')
      .values({
        token_hash: link.tokenHash,
        transaction_id: link.transactionId,
        created_at: link.createdAt,
        expires_at: link.expiresAt,
      })
      .execute();
  }

  async find(tokenHash: string): Promise<BookingLinkRecord | null> {
    const row = await this.db
      .selectFrom('booking_links')
      .selectAll()
      .where('token_hash', '=', tokenHash)
      .executeTakeFirst();
    return row ? toRecord(row) : null;
  }

  async ofBooking(transactionId: string): Promise<BookingLinkRecord[]> {
    const rows = await this.db
      .selectFrom('booking_links')
      .selectAll()
      .where('transaction_id', '=', transactionId)
      .orderBy('created_at', 'desc')
      .execute();
    return rows.map(toRecord);
  }

  async revoke(transactionId: string, at: Date, tokenHash?: string): Promise<number> {
    let query = this.db
      .updateTable('booking_links')
      .set({ revoked_at: at })
      .where('transaction_id', '=', transactionId)
      .where('revoked_at', 'is', null);
    if (tokenHash) query = query.where('token_hash', '=', tokenHash);
    const result = await query.executeTakeFirst();
    return Number(result.numUpdatedRows);
  }
}

function toRecord(row: {
  token_hash: string;
  transaction_id: string;
  created_at: Date | string;
  expires_at: Date | string;
  revoked_at: Date | string | null;
}): BookingLinkRecord {
  return {
    tokenHash: row.token_hash,
    transactionId: row.transaction_id,
    createdAt: toDate(row.created_at),
    expiresAt: toDate(row.expires_at),
    revokedAt: toDateOrNull(row.revoked_at),
  };
}
