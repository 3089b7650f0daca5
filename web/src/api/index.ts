export * from './http';
export * from './deposito-api';
export { errorMessageKey } from './error-messages';
