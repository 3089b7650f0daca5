export * from './locations';
export * from './discounts';
