// Holds through POST /api/lockers/inhibit-multi on PostgreSQL served by two cloud processes on one
// fresh schema, the load alternating between them; afterwards no locker may hold overlapping periods.
import { round, type BenchOptions, type BenchResult } from './bench-result';
import { runLoad } from './http-load';
import { startCloudProcess, type ServerProcess } from './processes';
import { auditReservations, reservationDetails, holdRequestBodies, holdRequests } from './reservations';
import { createBenchDatabase } from './stores';

export const name = 'reservation-postgres';
const TARGET_PER_SECOND = 1_000;

export async function run(options: BenchOptions = {}): Promise<BenchResult> {
  const load = options.quick ? { connections: 4, amount: 60 } : { connections: 24, duration: 10 };
  const database = await createBenchDatabase('postgres');
  const clouds: ServerProcess[] = [];
  try {
    for (let i = 0; i < 2; i += 1) {
      clouds.push(
        await startCloudProcess({ databaseUrl: database.url, schema: database.schema, poolSize: 12 }),
      );
    }
    const bodies = holdRequestBodies(options.quick ? 200 : 40_000);
    // autocannon spreads its connections over the URLs in turn.
    const figures = await runLoad({
      url: clouds.map((cloud) => cloud.url),
      ...load,
      requests: holdRequests(bodies),
    });
    await Promise.all(clouds.map((cloud) => cloud.stop()));
    const audit = await auditReservations(database);
    const figure = figures.ok / figures.durationS;
    // Requests still in flight when the load stopped may have committed without being counted.
    const consistent = audit.overlaps === 0 && audit.activeReservations >= figures.ok;
    return {
      name,
      figure: round(figure),
      unit: 'reservations/s',
      target: `≥ ${TARGET_PER_SECOND} reservations/s, 0 overlaps`,
      pass: figure >= TARGET_PER_SECOND && consistent,
      notes: `HTTP inhibit-multi, ${load.connections} connections alternating over 2 cloud processes, one schema`,
      details: reservationDetails(audit, figures),
    };
  } finally {
    await Promise.all(clouds.map((cloud) => cloud.stop()));
    await database.dispose();
  }
}
