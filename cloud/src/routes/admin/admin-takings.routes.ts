import { takingsCaveatsFromReport, takingsDataFromReport, takingsRoutes } from '@deposito/protocol';
import type { AppContext } from '../../app-context';
import { TakingsService } from '../../services/takings.service';
import { PromotecClient, PromotecTakings } from '../../takings/promotec-client';
import { endpoint, type Endpoint } from '../endpoint';

/** Incassi Mensili: the month's takings, the totem proceeds, the locations and their connection test. */
export function adminTakingsEndpoints(context: AppContext): Endpoint[] {
  const { store, clock, env } = context;
  // One service per app: its cache of monthly reports lives as long as the app.
  const takings = new TakingsService({
    store,
    clock,
    promotec: new PromotecTakings({
      client: new PromotecClient({ scheme: env.promotecScheme }),
      errorLog: store.errorLog,
      now: () => clock.now(),
    }),
  });
  return [
    endpoint(takingsRoutes.totemProceeds, ({ query }) => takings.totemProceeds(query.location, query.month)),
    endpoint(takingsRoutes.monthly, async ({ query }) => {
      const report = await takings.monthlyTakings(query);
      return {
        month: report.month,
        location: query.location,
        data: takingsDataFromReport(report),
        ...takingsCaveatsFromReport(report),
      };
    }),
    endpoint(takingsRoutes.locations, async () =>
      (await takings.sites()).map(({ key, name, recipient, port, zone }) => ({
        key,
        name,
        recipient,
        port,
        timezone: zone,
      })),
    ),
    endpoint(takingsRoutes.connectionTest, ({ body }) => takings.testConnections(body.location)),
  ];
}
