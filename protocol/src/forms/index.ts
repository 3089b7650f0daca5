// Customer form rules (live messages and the payment pre-check) and the phone-prefix list.
export * from './phone-prefixes';
export * from './customer-form';
