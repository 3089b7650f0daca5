import { adminRoutes, settingsRoutes } from '@deposito/protocol';
import type { AdminServices, AppContext } from '../../app-context';
import { adminOf } from '../../auth/require-admin';
import { describeChanges } from '../../services/admin-activity.service';
import { endpoint, type Endpoint } from '../endpoint';

/** Parametri di sistema, and the logs screens. The booking pages read the same settings. */
export function adminSettingsEndpoints(admin: AdminServices, context: AppContext): Endpoint[] {
  const settings = context.services.settings;
  return [
    endpoint(settingsRoutes.getSystem, () => settings.forOperator()),
    endpoint(settingsRoutes.updateSystem, async ({ body }, _req, res) => {
      const before = await settings.system();
      const updated = await settings.edit(adminOf(res).email, body);
      // The form posts every parameter; the log names the ones whose value changed, before → after.
      const keys = (Object.keys(body) as Array<keyof typeof updated>).filter((key) => key !== 'version');
      const pick = (values: typeof updated) => Object.fromEntries(keys.map((key) => [key, values[key]]));
      const changes = describeChanges(pick(before), pick(updated));
      if (changes) {
        await admin.activity.record(
          adminOf(res),
          'admin/settings_updated',
          `Parametri modificati: ${changes}`,
        );
      }
      return updated;
    }),

    endpoint(adminRoutes.alerts, () => admin.alerts.current()),
    endpoint(adminRoutes.acknowledgeAlert, async ({ params }, _req, res) => {
      await admin.alerts.acknowledge(adminOf(res), params.id, admin.activity);
      return { success: true as const };
    }),
    endpoint(adminRoutes.recentErrors, () => admin.logs.recentErrors()),
    endpoint(adminRoutes.errorArchive, ({ query }) =>
      admin.logs.archive(
        {
          ...(query.before && { before: new Date(query.before) }),
          ...(query.from && { from: new Date(query.from) }),
          ...(query.type && { type: query.type }),
          ...(query.location && { locationKey: query.location }),
          ...(query.locker !== undefined && { lockerId: query.locker }),
          ...(query.q && { text: query.q }),
        },
        query.limit,
      ),
    ),
    endpoint(adminRoutes.processLogs, async () => admin.logs.processLines()),
  ];
}
