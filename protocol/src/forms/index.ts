// Customer form rules (live messages and the payment pre-check), phone numbers of any country and
// the spec's 43 first countries.
export * from './phone-prefixes';
export * from './phone';
export * from './customer-form';
