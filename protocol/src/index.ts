// The one place each contract and business rule of Deposito is written; no I/O here, the clock is passed in.
export * from './schemas/index';
export * from './api/index';
export * from './pricing/index';
export * from './schedule/index';
export * from './forms/index';
export * from './booking/index';
export * from './seed/index';
export * from './takings/index';
// Bridge and controller contracts are versioned wire formats: import them from
// '@deposito/protocol/bridge/v1' and '@deposito/protocol/controller/index'.
