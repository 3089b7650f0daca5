// Time rules: calendar bounds, start slots, duration options and booking windows, in the location's zone.
export * from './time-of-day';
export * from './local-time';
export * from './calendar';
export * from './start-slots';
export * from './durations';
export * from './windows';
export * from './daily-windows';
export * from './period-availability';
export * from './offered-windows';
