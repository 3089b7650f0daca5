import { takingsCaveatsFromReport, takingsDataFromReport, takingsRoutes } from '@deposito/protocol';
import type { AdminServices } from '../../app-context';
import { endpoint, type Endpoint } from '../endpoint';

/** Incassi Mensili: the month's takings, the totem proceeds, the locations and their connection test. */
export function adminTakingsEndpoints({ takings }: AdminServices): Endpoint[] {
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
