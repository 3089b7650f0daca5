import { takingsRoutes, type TakingsLocationConnection } from '@deposito/protocol';
import { useCallback, useEffect, useRef, useState } from 'react';
import { adminCall, errorText } from '../admin-api';
import { Card } from '../components/ui';
import { COMPANY_LEGAL_NAME } from './takings-config';

type TestState =
  | { status: 'waiting' }
  | { status: 'testing' }
  | { status: 'connected' }
  | { status: 'failed'; error: string };

/** A kiosk answers within 10 s or counts as failed; the call itself waits a little longer. */
const TEST_TIMEOUT_MS = 20_000;

function StatusCell({ state }: { state: TestState }) {
  switch (state.status) {
    case 'waiting':
      return <span className="adm-muted">In attesa</span>;
    case 'testing':
      return (
        <span className="adm-tk-testing">
          <span className="adm-spinner" aria-hidden="true" /> Test in corso…
        </span>
      );
    case 'connected':
      return (
        <span className="adm-tk-ok">
          <span aria-hidden="true">✓</span> Connesso
        </span>
      );
    case 'failed':
      return (
        <span className="adm-tk-failed">
          <span aria-hidden="true">✗</span> Errore
          <span className="adm-tk-failed-message">{state.error}</span>
        </span>
      );
  }
}

async function exportPdf(
  locations: readonly TakingsLocationConnection[],
  states: Record<string, TestState>,
  testedAt: Date | null,
) {
  try {
    const { buildConnectionTestPdf, CONNECTION_TEST_PDF_FILE_NAME } = await import('./connection-test-pdf');
    const rows = locations.map((location) => {
      const state = states[location.key] ?? { status: 'waiting' };
      return {
        ...location,
        recipient: location.recipient ?? '—',
        success: state.status === 'connected',
        ...(state.status === 'failed' ? { error: state.error } : {}),
      };
    });
    buildConnectionTestPdf(rows, {
      companyName: COMPANY_LEGAL_NAME,
      testedAt: testedAt ?? new Date(),
    }).save(CONNECTION_TEST_PDF_FILE_NAME);
  } catch {
    window.alert('Errore durante la generazione del PDF');
  }
}

function ConnectionTestTable({
  locations,
  states,
}: {
  locations: readonly TakingsLocationConnection[];
  states: Record<string, TestState>;
}) {
  return (
    <div className="adm-table-wrap" tabIndex={0} role="region" aria-label="Risultati del test connessioni">
      <table className="adm-table adm-table-compact">
        <thead>
          <tr>
            <th>Location</th>
            <th>IP</th>
            <th>Porta</th>
            <th>Stato</th>
          </tr>
        </thead>
        <tbody>
          {locations.map((location) => (
            <tr key={location.key} data-testid={`connection-${location.key}`}>
              <td>{location.name}</td>
              <td className="adm-mono">{location.recipient ?? '—'}</td>
              <td className="adm-mono">{location.port}</td>
              <td>
                <StatusCell state={states[location.key] ?? { status: 'waiting' }} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/**
 * The Promotec connection test: every location's kiosk system tried in turn (one call each, so
 * each row shows its own progress), and the results exported as test_connessioni_promotec.pdf.
 */
export function ConnectionTestPanel({ locations }: { locations: readonly TakingsLocationConnection[] }) {
  const [states, setStates] = useState<Record<string, TestState>>({});
  const [running, setRunning] = useState(false);
  const [testedAt, setTestedAt] = useState<Date | null>(null);
  const run = useRef(0);

  const runTests = useCallback(async () => {
    const id = ++run.current;
    setRunning(true);
    setStates(Object.fromEntries(locations.map((location) => [location.key, { status: 'waiting' }])));
    for (const location of locations) {
      if (run.current !== id) return;
      setStates((current) => ({ ...current, [location.key]: { status: 'testing' } }));
      let state: TestState;
      try {
        const [result] = await adminCall(takingsRoutes.connectionTest, {
          body: { location: location.key },
          timeoutMs: TEST_TIMEOUT_MS,
        });
        state = result?.success
          ? { status: 'connected' }
          : { status: 'failed', error: result?.error ?? 'risposta non valida' };
      } catch (error) {
        state = { status: 'failed', error: errorText(error, 'Errore di rete o server non raggiungibile') };
      }
      if (run.current !== id) return;
      setStates((current) => ({ ...current, [location.key]: state }));
    }
    setTestedAt(new Date());
    setRunning(false);
  }, [locations]);

  useEffect(() => {
    void runTests();
    return () => {
      run.current += 1;
    };
  }, [runTests]);

  const connected = Object.values(states).filter((state) => state.status === 'connected').length;
  const done = Object.values(states).filter(
    (state) => state.status === 'connected' || state.status === 'failed',
  ).length;

  return (
    <Card
      className="adm-tk-test-panel"
      title="Test connessioni Promotec"
      actions={
        <>
          <button
            type="button"
            className="adm-btn adm-btn-secondary adm-btn-small"
            onClick={() => void runTests()}
            disabled={running}
          >
            Ripeti test
          </button>
          <button
            type="button"
            className="adm-btn adm-btn-secondary adm-btn-small"
            onClick={() => void exportPdf(locations, states, testedAt)}
            disabled={running || done === 0}
          >
            Esporta PDF test
          </button>
        </>
      }
    >
      <p className="adm-muted adm-small" aria-live="polite">
        {running
          ? `Test in corso: ${done} di ${locations.length} location verificate…`
          : `${connected} di ${locations.length} location connesse.`}
      </p>
      <ConnectionTestTable locations={locations} states={states} />
    </Card>
  );
}
