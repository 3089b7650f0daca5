import type { ExcludedTestBookings, MonthlyTakingsReport } from '@deposito/protocol';
import { testBookingsText, totemMissingText } from './takings-caveat-text';

/**
 * Said before any figure when a kiosk could not be read: its location's totem and total amounts,
 * and the month's totals, lack those payments. Never a quietly lower total.
 */
export function TotemMissingWarning({
  report,
  onReload,
}: {
  report: MonthlyTakingsReport;
  onReload: () => void;
}) {
  if (report.totemMissing.length === 0) return null;
  return (
    <div className="adm-tk-warning" role="alert">
      <h2>Totale incompleto</h2>
      <ul>
        {report.totemMissing.map((missing) => (
          <li key={missing.key}>
            <strong>{totemMissingText(missing.name)}</strong>
            <span className="adm-tk-warning-reason">Motivo: {missing.reason}</span>
          </li>
        ))}
      </ul>
      <p>
        Gli importi totem e i totali qui sotto non comprendono gli incassi totem di{' '}
        {report.totemMissing.length === 1 ? 'questa sede' : 'queste sedi'}.
      </p>
      <button type="button" className="adm-btn adm-btn-secondary" onClick={onReload}>
        Riprova lettura totem
      </button>
    </div>
  );
}

/** The test bookings kept out of the figures, when there are any. */
export function ExcludedTestBookingsNote({ tests }: { tests: ExcludedTestBookings }) {
  if (tests.count === 0) return null;
  return (
    <p className="adm-tk-tests">
      {testBookingsText(tests)}
      <span className="adm-muted"> — create dagli operatori, non conteggiate negli incassi online</span>
    </p>
  );
}
