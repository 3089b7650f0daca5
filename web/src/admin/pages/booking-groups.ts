import type { BookingRow } from '@deposito/protocol';

/** One booking: its rows (one per locker) share the transaction id. */
export interface BookingGroup {
  transactionId: string;
  rows: BookingRow[];
  first: BookingRow;
}

export function groupByTransaction(rows: readonly BookingRow[]): BookingGroup[] {
  const groups = new Map<string, BookingRow[]>();
  for (const row of rows) {
    const list = groups.get(row.TRANSACTION_ID) ?? [];
    list.push(row);
    groups.set(row.TRANSACTION_ID, list);
  }
  return [...groups].map(([transactionId, list]) => ({ transactionId, rows: list, first: list[0] }));
}
