// The locker controller's wire format: operations, request fields, numeric states, XML answer schemas.
export * from './operations';
export * from './locker-state';
export * from './responses';
