import {
  locationRoutes,
  lockerRoutes,
  type LiveLockersState,
  type LocationSummary,
  type LockerFullState,
} from '@deposito/protocol';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { adminCall, errorText } from '../admin-api';
import { ApiError, CLIENT_ERROR_CODES } from '../../api/http';
import { Card, Empty, Loading, Notice, PageHeader, type NoticeMessage } from '../components/ui';
import { lockerLabel, lockerTone } from '../format';
import { LockerActionDialog } from './LockerActionDialog';
import { LockerHistory } from './LockerHistory';
import { LOCKER_ACTIONS, LOCKER_TIMEOUT_MS, useLockerActions } from './useLockerActions';
import { useLiveLockers, type LiveConnection } from './useLiveLockers';

/** A tile as the live stream describes it; the manual refresh knows no door nor staleness. */
type GridLocker = LockerFullState & { doorOpen?: boolean; stale?: boolean };

/** The site line above the grid: online or since when not, and whether the grid follows by itself. */
function SiteStatus({
  site,
  connection,
  zone,
}: {
  site: Pick<LiveLockersState, 'online' | 'lastSeenAt'> | null;
  connection: LiveConnection;
  zone: string;
}) {
  if (!site) return null;
  const lastSeen = site.lastSeenAt
    ? new Intl.DateTimeFormat('it-IT', { timeZone: zone, dateStyle: 'short', timeStyle: 'medium' }).format(
        new Date(site.lastSeenAt),
      )
    : null;
  return (
    <p className={`adm-site-status ${site.online ? 'adm-site-online' : 'adm-site-offline'}`} role="status">
      <span className="adm-site-dot" aria-hidden="true" />
      {site.online ? (
        <strong>Sede online</strong>
      ) : (
        <strong>Sede OFFLINE: lo stato mostrato è l&apos;ultimo noto</strong>
      )}
      {!site.online ? <span>{lastSeen ? ` · ultimo contatto ${lastSeen}` : ' · mai collegata'}</span> : null}
      <span className="adm-muted">
        {connection === 'live' ? ' · aggiornamento automatico' : ' · riconnessione in corso…'}
      </span>
    </p>
  );
}

const LEGEND = [
  ['free', 'Libero'],
  ['busy', 'Occupato'],
  ['inhibited', 'Inibito'],
  ['unknown', 'Sconosciuto'],
] as const;

export function LockerStatusPage() {
  const [locations, setLocations] = useState<LocationSummary[]>([]);
  const [locationKey, setLocationKey] = useState('');
  const [lockers, setLockers] = useState<GridLocker[] | null>(null);
  const [site, setSite] = useState<Pick<LiveLockersState, 'online' | 'lastSeenAt'> | null>(null);
  const [selected, setSelected] = useState<number | null>(null);
  const [typedId, setTypedId] = useState('');
  const [loading, setLoading] = useState(false);
  const [message, setMessage] = useState<NoticeMessage | null>(null);
  // An action's result is shown under the action buttons, where the operator just tapped: on a phone
  // the page's top is a screen away (below the grid).
  const [actionMessage, setActionMessage] = useState<NoticeMessage | null>(null);
  const actionResult = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (actionMessage) actionResult.current?.scrollIntoView?.({ block: 'nearest', behavior: 'smooth' });
  }, [actionMessage]);

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

  /** When the live stream last sent a state (a manual answer older than it must not replace it). */
  const liveStateAt = useRef(0);
  const loadState = useCallback(async (key: string) => {
    if (!key) return;
    setLoading(true);
    const askedAt = Date.now();
    try {
      const fresh = await adminCall(lockerRoutes.fullState, {
        query: { location: key },
        timeoutMs: LOCKER_TIMEOUT_MS,
      });
      if (liveStateAt.current > askedAt) return;
      // The answer knows no doors nor staleness: what the live stream said of each tile stays.
      setLockers((previous) =>
        fresh.map((locker) => {
          const live = previous?.find((p) => p.id === locker.id);
          return { ...locker, doorOpen: live?.doorOpen, stale: live?.stale };
        }),
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
    setActionMessage(null);
    if (!locations.some((l) => l.key === key)) {
      setLocationKey('');
      setLockers(null);
      setMessage({ tone: 'warning', text: 'Seleziona una location valida' });
      return;
    }
    setLocationKey(key);
    setSite(null);
    setLockers(null);
    liveStateAt.current = 0;
    void loadState(key);
  }

  function selectById(text: string) {
    setTypedId(text);
    const id = Number.parseInt(text, 10);
    setSelected(Number.isInteger(id) && id > 0 ? id : null);
  }

  const counts = useMemo(() => {
    const result = { free: 0, busy: 0, inhibited: 0, unknown: 0 };
    for (const locker of lockers ?? []) result[lockerTone(locker.status)] += 1;
    return result;
  }, [lockers]);

  const onLiveState = useCallback((state: LiveLockersState) => {
    liveStateAt.current = Date.now();
    setLockers(state.lockers);
    setSite({ online: state.online, lastSeenAt: state.lastSeenAt });
  }, []);
  const connection = useLiveLockers(locationKey, onLiveState);

  const actions = useLockerActions(locationKey, loadState, setActionMessage);
  const selectedLocker = lockers?.find((l) => l.id === selected);
  const zone = locations.find((l) => l.key === locationKey)?.timezone ?? 'Europe/Rome';

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
      {locationKey ? <SiteStatus site={site} connection={connection} zone={zone} /> : null}
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
                  className={`adm-locker adm-locker-${lockerTone(locker.status)}${selected === locker.id ? ' adm-locker-selected' : ''}${locker.stale ? ' adm-locker-stale' : ''}`}
                  title={
                    locker.stale ? 'Stato non aggiornato: la sede non lo ha ancora confermato' : undefined
                  }
                  onClick={() => {
                    setSelected(locker.id);
                    setTypedId(String(locker.id));
                  }}
                >
                  <span className="adm-locker-id">{locker.id}</span>
                  <span className="adm-locker-size">{locker.size === 'large' ? 'Grande' : 'Standard'}</span>
                  <span className="adm-locker-status">{lockerLabel(locker.status, locker.online)}</span>
                  {locker.doorOpen ? <span className="adm-locker-door">Porta aperta</span> : null}
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
            {LOCKER_ACTIONS.map((action) => (
              <button
                key={action.action}
                type="button"
                className={`adm-btn ${action.className}`}
                disabled={actions.busy}
                onClick={() => actions.ask(action, selected)}
              >
                {actions.busy && actions.dialog?.action.action === action.action ? '…' : action.label}
              </button>
            ))}
          </div>
          <div ref={actionResult} className="adm-action-result">
            <Notice message={actionMessage} onClose={() => setActionMessage(null)} />
          </div>
          {selected !== null && locationKey ? (
            <LockerHistory location={locationKey} lockerId={selected} zone={zone} />
          ) : null}
        </Card>
      </div>
      {actions.dialog ? (
        <LockerActionDialog
          state={actions.dialog}
          zone={zone}
          busy={actions.busy}
          onConfirm={(choice) => void actions.confirm(choice)}
          onCancel={actions.cancel}
        />
      ) : null}
    </>
  );
}
