import type { Kysely } from 'kysely';
import type { Database } from './database';

export interface PaymentReceipt {
  transactionId: string;
  providerReference: string;
  amountCents: number | null;
  receivedAt: Date;
}

export interface PaymentReceiptRepository {
  /** Records a payment the gateway took; false when this booking and reference were recorded already. */
  record(receipt: PaymentReceipt): Promise<boolean>;
}

export class KyselyPaymentReceiptRepository implements PaymentReceiptRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async record(receipt: PaymentReceipt): Promise<boolean> {
    const result = await this.db
      .insertInto('payment_receipts')
      .values({
        transaction_id: receipt.transactionId,
        provider_reference: receipt.providerReference,
        amount_cents: receipt.amountCents,
        received_at: receipt.receivedAt,
      })
      .onConflict((conflict) => conflict.columns(['transaction_id', 'provider_reference']).doNothing())
      .executeTakeFirst();
    return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
  }
}
