import { takingsDataFromReport, takingsRoutes } from '@deposito/protocol';
import type { AppContext } from '../../app';
import { TakingsService } from '../../services/takings.service';
import { PromotecTakings } from '../../takings/promotec-client';
import { endpoint, type Endpoint } from '../endpoint';

/** Incassi Mensili: the month's takings, the totem proceeds, the locations and their connection test. */
export function adminTakingsEndpoints(context: AppContext): Endpoint[] {
  const { store, clock } = context;
  // One service per app: its cache of monthly reports lives as long as the app.
  const takings = new TakingsService({
    store,
    clock,
    promotec: new PromotecTakings({ errorLog: store.errorLog, now: () => clock.now() }),
  });
  return [
    endpoint(takingsRoutes.totemProceeds, ({ query }) => takings.totemProceeds(query.location, query.month)),
    endpoint(takingsRoutes.monthly, async ({ query }) => {
      const report = await takings.monthlyTakings(query);
      return { month: report.month, location: query.location, data: takingsDataFromReport(report) };
    }),
    endpoint(takingsRoutes.locations, async () =>
      (await takings.sites()).map(({ key, name, recipient, port }) => ({ key, name, recipient, port })),
    ),
    endpoint(takingsRoutes.connectionTest, ({ body }) => takings.testConnections(body.location)),
  ];
}
