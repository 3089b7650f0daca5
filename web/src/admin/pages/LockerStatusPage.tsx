import { locationRoutes, lockerRoutes, type LocationSummary, type LockerFullState } from '@deposito/protocol';
import { useCallback, useEffect, useMemo, useState } from 'react';
import { adminCall, errorText } from '../admin-api';
import { ApiError, CLIENT_ERROR_CODES } from '../../api/http';
import { Card, Empty, Loading, Notice, PageHeader, type NoticeMessage } from '../components/ui';
import { lockerLabel, lockerTone } from '../format';

/** Locker calls give up after 5 s (admin spec §9). */
const LOCKER_TIMEOUT_MS = 5_000;

const ACTIONS = [
  { route: lockerRoutes.open, action: 'open', label: 'Apri', className: 'adm-btn-primary' },
  { route: lockerRoutes.inhibit, action: 'inhibit', label: 'Disattiva', className: 'adm-btn-secondary' },
  { route: lockerRoutes.unbook, action: 'unbook', label: 'Attiva', className: 'adm-btn-secondary' },
  {
    route: lockerRoutes.unbookSoap,
    action: 'unbook-soap',
    label: 'Annulla prenotazione',
    className: 'adm-btn-danger',
  },
] as const;

const LEGEND = [
  ['free', 'Libero'],
  ['busy', 'Occupato'],
  ['inhibited', 'Inibito'],
  ['unknown', 'Sconosciuto'],
] as const;

export function LockerStatusPage() {
  const [locations, setLocations] = useState<LocationSummary[]>([]);
  const [locationKey, setLocationKey] = useState('');
  const [lockers, setLockers] = useState<LockerFullState[] | null>(null);
  const [selected, setSelected] = useState<number | null>(null);
  const [typedId, setTypedId] = useState('');
  const [loading, setLoading] = useState(false);
  const [busyAction, setBusyAction] = useState<string | null>(null);
  const [message, setMessage] = useState<NoticeMessage | null>(null);

  useEffect(() => {
    adminCall(locationRoutes.listLocations, { timeoutMs: LOCKER_TIMEOUT_MS })
      .then(setLocations)
      .catch((error: unknown) =>
        setMessage({
          tone: 'error',
          text: `Errore caricamento locations: ${errorText(error, 'errore sconosciuto')}`,
        }),
      );
  }, []);

  const loadState = useCallback(async (key: string) => {
    if (!key) return;
    setLoading(true);
    try {
      setLockers(
        await adminCall(lockerRoutes.fullState, { query: { location: key }, timeoutMs: LOCKER_TIMEOUT_MS }),
      );
    } catch (error) {
      setLockers(null);
      const invalid = error instanceof ApiError && error.code === CLIENT_ERROR_CODES.invalidResponse;
      setMessage({
        tone: 'error',
        text: invalid ? 'Formato dati non valido dal server' : 'Errore caricamento stato locker',
      });
    } finally {
      setLoading(false);
    }
  }, []);

  function chooseLocation(key: string) {
    setSelected(null);
    setTypedId('');
    setMessage(null);
    if (!locations.some((l) => l.key === key)) {
      setLocationKey('');
      setLockers(null);
      setMessage({ tone: 'warning', text: 'Seleziona una location valida' });
      return;
    }
    setLocationKey(key);
    void loadState(key);
  }

  function selectById(text: string) {
    setTypedId(text);
    const id = Number.parseInt(text, 10);
    setSelected(Number.isInteger(id) && id > 0 ? id : null);
  }

  async function run(action: (typeof ACTIONS)[number]) {
    if (!locationKey) {
      setMessage({ tone: 'warning', text: 'Seleziona una location' });
      return;
    }
    if (selected === null) {
      setMessage({ tone: 'warning', text: 'Seleziona un locker' });
      return;
    }
    if (
      action.action === 'unbook-soap' &&
      !window.confirm(`Sei sicuro di voler annullare la prenotazione del locker ${selected}?`)
    ) {
      return;
    }
    setBusyAction(action.action);
    setMessage(null);
    try {
      const result = await adminCall(action.route, {
        body: { location: locationKey, lockerId: selected },
        timeoutMs: LOCKER_TIMEOUT_MS,
      });
      setMessage({
        tone: 'success',
        text:
          result.outcome === 'queued'
            ? `${action.label}: comando in coda per il locker ${selected}, partirà quando la sede si ricollega`
            : `${action.label}: comando eseguito sul locker ${selected}`,
      });
    } catch (error) {
      setMessage({
        tone: 'error',
        text: `Errore durante l'azione ${action.action}: ${errorText(error, 'errore sconosciuto')}`,
      });
    } finally {
      setBusyAction(null);
      await loadState(locationKey);
    }
  }

  const counts = useMemo(() => {
    const result = { free: 0, busy: 0, inhibited: 0, unknown: 0 };
    for (const locker of lockers ?? []) result[lockerTone(locker.status)] += 1;
    return result;
  }, [lockers]);

  const selectedLocker = lockers?.find((l) => l.id === selected);

  return (
    <>
      <PageHeader title="Gestione Locker" subtitle="Stato e comandi dei locker per sede" />
      <Card>
        <div className="adm-filterbar">
          <label className="adm-field adm-field-inline">
            <span className="adm-field-label">Location</span>
            <select
              className="adm-input"
              value={locationKey}
              onChange={(event) => chooseLocation(event.target.value)}
              aria-label="Location"
            >
              <option value="">Seleziona una location</option>
              {locations.map((location) => (
                <option key={location.key} value={location.key}>
                  {location.nome} ({location.key})
                </option>
              ))}
            </select>
          </label>
          <button
            type="button"
            className="adm-btn adm-btn-secondary"
            onClick={() => void loadState(locationKey)}
            disabled={!locationKey || loading}
          >
            ↻ Aggiorna
          </button>
          <div className="adm-legend" aria-label="Legenda">
            {LEGEND.map(([tone, label]) => (
              <span key={tone} className="adm-legend-item">
                <span className={`adm-swatch adm-locker-${tone}`} aria-hidden="true" />
                {label}
                {lockers ? <strong>{counts[tone]}</strong> : null}
              </span>
            ))}
          </div>
        </div>
      </Card>
      <Notice message={message} onClose={() => setMessage(null)} />
      <div className="adm-split">
        <Card title="Locker" className="adm-split-main">
          {!locationKey ? (
            <Empty>Seleziona una location per visualizzare i locker</Empty>
          ) : loading && !lockers ? (
            <Loading />
          ) : !lockers || lockers.length === 0 ? (
            <Empty>Nessun locker disponibile per la location selezionata</Empty>
          ) : (
            <div className="adm-locker-grid" role="listbox" aria-label="Locker">
              {lockers.map((locker) => (
                <button
                  type="button"
                  role="option"
                  aria-selected={selected === locker.id}
                  key={locker.id}
                  className={`adm-locker adm-locker-${lockerTone(locker.status)}${selected === locker.id ? ' adm-locker-selected' : ''}`}
                  onClick={() => {
                    setSelected(locker.id);
                    setTypedId(String(locker.id));
                  }}
                >
                  <span className="adm-locker-id">{locker.id}</span>
                  <span className="adm-locker-size">{locker.size === 'large' ? 'Grande' : 'Standard'}</span>
                  <span className="adm-locker-status">{lockerLabel(locker.status, locker.online)}</span>
                  {locker.transactionId ? (
                    <span className="adm-locker-tx" title={locker.transactionId}>
                      {locker.transactionId}
                    </span>
                  ) : null}
                </button>
              ))}
            </div>
          )}
        </Card>
        <Card title="Azioni" className="adm-split-side">
          <label className="adm-field">
            <span className="adm-field-label">ID locker</span>
            <input
              className="adm-input"
              type="number"
              min={1}
              inputMode="numeric"
              value={typedId}
              onChange={(event) => selectById(event.target.value)}
              placeholder="es. 12"
            />
          </label>
          <p className="adm-muted adm-small">
            {selected === null
              ? 'Nessun locker selezionato'
              : selectedLocker
                ? `Locker ${selected} · ${selectedLocker.size} · ${lockerLabel(selectedLocker.status, selectedLocker.online)}`
                : `Locker ${selected}`}
          </p>
          <div className="adm-action-list">
            {ACTIONS.map((action) => (
              <button
                key={action.action}
                type="button"
                className={`adm-btn ${action.className}`}
                disabled={busyAction !== null}
                onClick={() => void run(action)}
              >
                {busyAction === action.action ? '…' : action.label}
              </button>
            ))}
          </div>
        </Card>
      </div>
    </>
  );
}
