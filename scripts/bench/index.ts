// Every benchmark, in the order `npm run bench` runs them (cheap and self-contained ones first).
import * as availabilityLatency from './availability-latency';
import * as availabilityThroughput from './availability-throughput';
import type { Benchmark } from './bench-result';
import * as builtBridge from './built-bridge';
import * as commandRoundTrip from './command-round-trip';
import * as hubScale from './hub-scale';
import * as lighthouse from './lighthouse';
import * as offlineReplay from './offline-replay';
import * as pageWeight from './page-weight';
import * as reconnectStorm from './reconnect-storm';
import * as reservationPostgres from './reservation-postgres';
import * as reservationSqlite from './reservation-sqlite';
import * as steadyLoad from './steady-load';
import * as takings from './takings';

export const BENCHMARKS: readonly Benchmark[] = [
  availabilityThroughput,
  reservationSqlite,
  reservationPostgres,
  availabilityLatency,
  commandRoundTrip,
  hubScale,
  reconnectStorm,
  offlineReplay,
  builtBridge,
  pageWeight,
  lighthouse,
  takings,
  steadyLoad,
];
