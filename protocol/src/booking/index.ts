// Booking rules that need no clock: statuses, quantities, PINs, transaction ids and notes.
export * from './status';
export * from './quantity';
export * from './pin';
export * from './transaction-id';
export * from './note';
export * from './hold-length';
