import { adminRoutes, type Alert } from '@deposito/protocol';
import { useQuery } from '@tanstack/react-query';
import { ApiError } from '../../api/http';
import { adminCall, errorText } from '../admin-api';
import { formatInZone } from '../format';
import { Card, Notice } from '../components/ui';
import { adminQueries } from '../query/queries';
import { useAdminMutation } from '../query/use-admin-mutation';

/** How often the panel looks again while the dashboard is open. */
const REFRESH_MS = 30_000;

const notForRole = (error: unknown) => error instanceof ApiError && error.code === 'auth/forbidden';

/**
 * The alerts operators still have to see (issue 17): a bridge offline, a door left open, a command
 * that failed, a PIN not delivered, a payment to check. Each says whether its cause is still going
 * on; "Presa visione" closes it once it is over (the server e-mailed every operator when it rose).
 */
export function AlertsPanel() {
  const query = useQuery({
    ...adminQueries.alerts(),
    // A technician's role does not include the alerts: no point asking every 30 s.
    refetchInterval: (alerts) => (notForRole(alerts.state.error) ? false : REFRESH_MS),
  });
  const acknowledge = useAdminMutation(
    (alert: Alert) => adminCall(adminRoutes.acknowledgeAlert, { params: { id: alert.id } }),
    [adminQueries.alerts().queryKey],
  );

  /** A technician's role does not include the alerts: the panel is not shown. */
  if (notForRole(query.error)) return null;
  const alerts = query.data ?? null;
  const busy = acknowledge.isPending ? acknowledge.variables.id : null;
  const problem = acknowledge.isError
    ? `Presa visione non registrata: ${errorText(acknowledge.error, 'errore sconosciuto')}`
    : query.isError
      ? `Allarmi non caricati: ${errorText(query.error, 'errore sconosciuto')}`
      : null;
  return (
    <Card>
      <section aria-labelledby="alerts-title">
        <h2 id="alerts-title" className="adm-subtitle">
          Allarmi{alerts && alerts.length > 0 ? ` (${alerts.length})` : ''}
        </h2>
        <Notice message={problem ? { tone: 'error', text: problem } : null} />
        {alerts === null ? null : alerts.length === 0 ? (
          <p className="adm-muted">Nessun allarme: bridge collegati, sportelli chiusi, comandi riusciti.</p>
        ) : (
          <ul className="adm-alerts">
            {alerts.map((alert) => (
              <li key={alert.id} className={alert.resolvedAt ? 'adm-alert adm-alert-over' : 'adm-alert'}>
                <p>
                  <strong>{alert.resolvedAt ? 'Risolto' : 'In corso'}</strong> · {alert.message}
                </p>
                <p className="adm-muted adm-small">
                  {formatInZone(alert.raisedAt, 'Europe/Rome')}
                  {alert.locationKey ? ` · sede ${alert.locationKey}` : ''}
                  {alert.acknowledgedBy ? ` · visto da ${alert.acknowledgedBy}` : ''}
                </p>
                {alert.acknowledgedAt ? null : (
                  <button
                    type="button"
                    className="adm-btn adm-btn-secondary"
                    disabled={busy === alert.id}
                    onClick={() => acknowledge.mutate(alert)}
                  >
                    Presa visione
                  </button>
                )}
              </li>
            ))}
          </ul>
        )}
      </section>
    </Card>
  );
}
