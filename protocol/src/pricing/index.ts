// Prices, discounts and totals. All amounts are integer cents.
export * from './locker-size';
export * from './money';
export * from './price-table';
export * from './totals';
export * from './location-pricing';
