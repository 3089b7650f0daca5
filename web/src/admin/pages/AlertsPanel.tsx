import { adminRoutes, type Alert } from '@deposito/protocol';
import { useCallback, useEffect, useState } from 'react';
import { ApiError } from '../../api/http';
import { adminCall, errorText } from '../admin-api';
import { formatInZone } from '../format';
import { Card, Notice } from '../components/ui';

/** How often the panel looks again while the dashboard is open. */
const REFRESH_MS = 30_000;

/**
 * The alerts operators still have to see (issue 17): a bridge offline, a door left open, a command
 * that failed, a PIN not delivered, a payment to check. Each says whether its cause is still going
 * on; "Presa visione" closes it once it is over (the server e-mailed every operator when it rose).
 */
export function AlertsPanel() {
  const [alerts, setAlerts] = useState<Alert[] | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState<number | null>(null);
  /** A technician's role does not include the alerts: the panel is not shown. */
  const [notForRole, setNotForRole] = useState(false);

  const load = useCallback(async () => {
    try {
      setAlerts(await adminCall(adminRoutes.alerts, {}));
      setProblem(null);
    } catch (error) {
      if (error instanceof ApiError && error.code === 'auth/forbidden') setNotForRole(true);
      else setProblem(`Allarmi non caricati: ${errorText(error, 'errore sconosciuto')}`);
    }
  }, []);

  useEffect(() => {
    void load();
    const timer = window.setInterval(() => void load(), REFRESH_MS);
    return () => window.clearInterval(timer);
  }, [load]);

  async function acknowledge(alert: Alert) {
    setBusy(alert.id);
    try {
      await adminCall(adminRoutes.acknowledgeAlert, { params: { id: alert.id } });
      await load();
    } catch (error) {
      setProblem(`Presa visione non registrata: ${errorText(error, 'errore sconosciuto')}`);
    } finally {
      setBusy(null);
    }
  }

  if (notForRole) return null;
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
                    onClick={() => void acknowledge(alert)}
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
