import {
  lockerRoutes,
  type LiveLockersState,
  type LocationSummary,
  type LockerFullState,
} from '@deposito/protocol';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { adminCall, errorText } from '../admin-api';
import { ApiError, CLIENT_ERROR_CODES } from '../../api/http';
import { Card, Empty, Loading, Notice, PageHeader, type NoticeMessage } from '../components/ui';
import { lockerLabel, lockerTone } from '../format';
import { LockerActionDialog } from './LockerActionDialog';
import { LockerHistory } from './LockerHistory';
import { LOCKER_ACTIONS, LOCKER_TIMEOUT_MS, useLockerActions } from './useLockerActions';
import { useLiveLockers, type LiveConnection } from './useLiveLockers';
import { adminQueries } from '../query/queries';
import { LocationOptions } from '../components/form-fields';

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

type SiteState = Pick<LiveLockersState, 'online' | 'lastSeenAt'>;

/** A site's grid as shown: the tiles, and the site's line once the live stream has spoken. */
interface GridState {
  lockers: GridLocker[];
  site: SiteState | null;
}

/**
 * One site's locker grid as a query: "Aggiorna" and every answered action read it (lockerRoutes.
 * fullState), the live stream writes each state it sends into the same cache entry. A manual answer
 * asked before the stream's last state does not replace it, and keeps what the stream said of each
 * tile's door and staleness (the manual answer knows neither).
 */
function useLockerGrid(locationKey: string) {
  const queryClient = useQueryClient();
  const queryKey = ['lockers', 'grid', locationKey];
  /** When the live stream last sent a state. */
  const liveStateAt = useRef(0);
  const query = useQuery({
    queryKey,
    enabled: Boolean(locationKey),
    // The stream keeps it current; a site chosen again is read again.
    gcTime: 0,
    retry: false,
    queryFn: async ({ signal }): Promise<GridState> => {
      const askedAt = Date.now();
      const fresh = await adminCall(lockerRoutes.fullState, {
        query: { location: locationKey },
        timeoutMs: LOCKER_TIMEOUT_MS,
        signal,
      });
      const previous = queryClient.getQueryData<GridState>(queryKey);
      if (previous && liveStateAt.current > askedAt) return previous;
      return {
        site: previous?.site ?? null,
        lockers: fresh.map((locker) => {
          const live = previous?.lockers.find((p) => p.id === locker.id);
          return { ...locker, doorOpen: live?.doorOpen, stale: live?.stale };
        }),
      };
    },
  });
  const onLiveState = useCallback(
    (state: LiveLockersState) => {
      liveStateAt.current = Date.now();
      queryClient.setQueryData<GridState>(['lockers', 'grid', state.location], {
        lockers: state.lockers,
        site: { online: state.online, lastSeenAt: state.lastSeenAt },
      });
    },
    [queryClient],
  );
  const reload = useCallback(async () => {
    await query.refetch();
  }, [query]);
  // The stream refused (the session ended): reading the grid meets the sign-in (admin-api.ts's 401).
  const connection = useLiveLockers(locationKey, onLiveState, () => void reload());
  return { query, connection, reload };
}

/** The message for a grid that could not be read. */
function gridFailure(error: unknown): NoticeMessage {
  const invalid = error instanceof ApiError && error.code === CLIENT_ERROR_CODES.invalidResponse;
  return {
    tone: 'error',
    text: invalid ? 'Formato dati non valido dal server' : 'Errore caricamento stato locker',
  };
}

function LockerFilterBar({
  locations,
  locationKey,
  lockers,
  loading,
  onChoose,
  onReload,
}: {
  locations: readonly LocationSummary[];
  locationKey: string;
  lockers: readonly GridLocker[] | null;
  loading: boolean;
  onChoose: (key: string) => void;
  onReload: () => void;
}) {
  const counts = useMemo(() => {
    const result = { free: 0, busy: 0, inhibited: 0, unknown: 0 };
    for (const locker of lockers ?? []) result[lockerTone(locker.status)] += 1;
    return result;
  }, [lockers]);
  return (
    <div className="adm-filterbar">
      <label className="adm-field adm-field-inline">
        <span className="adm-field-label">Location</span>
        <select
          className="adm-input"
          value={locationKey}
          onChange={(event) => onChoose(event.target.value)}
          aria-label="Location"
        >
          <option value="">Seleziona una location</option>
          <LocationOptions locations={locations} withKey />
        </select>
      </label>
      <button
        type="button"
        className="adm-btn adm-btn-secondary"
        onClick={onReload}
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
  );
}

function LockerGrid({
  lockers,
  selected,
  onSelect,
}: {
  lockers: readonly GridLocker[];
  selected: number | null;
  onSelect: (id: number) => void;
}) {
  return (
    <div className="adm-locker-grid" role="listbox" aria-label="Locker">
      {lockers.map((locker) => (
        <button
          type="button"
          role="option"
          aria-selected={selected === locker.id}
          key={locker.id}
          className={`adm-locker adm-locker-${lockerTone(locker.status)}${selected === locker.id ? ' adm-locker-selected' : ''}${locker.stale ? ' adm-locker-stale' : ''}`}
          title={locker.stale ? 'Stato non aggiornato: la sede non lo ha ancora confermato' : undefined}
          onClick={() => onSelect(locker.id)}
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
  );
}

/** The actions on the chosen locker, their result under the buttons, and the locker's history. */
/**
 * The locker the operator works on: tapped in the grid or typed by its number (the field keeps the
 * text as typed), with what the grid says of it.
 */
function useLockerChoice(lockers: readonly GridLocker[] | null) {
  const [selected, setSelected] = useState<number | null>(null);
  const [typedId, setTypedId] = useState('');
  return {
    selected,
    typedId,
    locker: lockers?.find((l) => l.id === selected),
    pick(id: number) {
      setSelected(id);
      setTypedId(String(id));
    },
    type(text: string) {
      setTypedId(text);
      const id = Number.parseInt(text, 10);
      setSelected(Number.isInteger(id) && id > 0 ? id : null);
    },
    clear() {
      setSelected(null);
      setTypedId('');
    },
  };
}

type LockerChoice = ReturnType<typeof useLockerChoice>;

function LockerActionsCard({
  site: { key: locationKey, zone },
  choice: { selected, typedId, locker: selectedLocker, type },
  reload,
}: {
  /** The site whose lockers the actions move, and its time zone for the history. */
  site: { key: string; zone: string };
  choice: LockerChoice;
  reload: () => Promise<void>;
}) {
  // An action's result is shown under the action buttons, where the operator just tapped: on a phone
  // the page's top is a screen away (below the grid).
  const [actionMessage, setActionMessage] = useState<NoticeMessage | null>(null);
  const actionResult = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (actionMessage) actionResult.current?.scrollIntoView?.({ block: 'nearest', behavior: 'smooth' });
  }, [actionMessage]);
  const actions = useLockerActions(locationKey, reload, setActionMessage);

  return (
    <>
      <Card title="Azioni" className="adm-split-side">
        <label className="adm-field">
          <span className="adm-field-label">ID locker</span>
          <input
            className="adm-input"
            type="number"
            min={1}
            inputMode="numeric"
            value={typedId}
            onChange={(event) => type(event.target.value)}
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

export function LockerStatusPage() {
  const sites = useQuery(adminQueries.locationSummaries());
  const locations = useMemo(() => sites.data ?? [], [sites.data]);
  const [locationKey, setLocationKey] = useState('');
  const [message, setMessage] = useState<NoticeMessage | null>(null);
  const { query: grid, connection, reload } = useLockerGrid(locationKey);
  const lockers = grid.isError ? null : (grid.data?.lockers ?? null);
  const choice = useLockerChoice(lockers);
  const zone = locations.find((l) => l.key === locationKey)?.timezone ?? 'Europe/Rome';

  function chooseLocation(key: string) {
    choice.clear();
    setMessage(null);
    if (!locations.some((l) => l.key === key)) {
      setLocationKey('');
      setMessage({ tone: 'warning', text: 'Seleziona una location valida' });
      return;
    }
    setLocationKey(key);
  }

  const shownMessage =
    message ??
    (sites.isError
      ? {
          tone: 'error' as const,
          text: `Errore caricamento locations: ${errorText(sites.error, 'errore sconosciuto')}`,
        }
      : grid.isError
        ? gridFailure(grid.error)
        : null);

  return (
    <>
      <PageHeader title="Gestione Locker" subtitle="Stato e comandi dei locker per sede" />
      <Card>
        <LockerFilterBar
          locations={locations}
          locationKey={locationKey}
          lockers={lockers}
          loading={grid.isFetching}
          onChoose={chooseLocation}
          onReload={() => void reload()}
        />
      </Card>
      <Notice message={shownMessage} onClose={() => setMessage(null)} />
      {locationKey ? <SiteStatus site={grid.data?.site ?? null} connection={connection} zone={zone} /> : null}
      <div className="adm-split">
        <Card title="Locker" className="adm-split-main">
          {!locationKey ? (
            <Empty>Seleziona una location per visualizzare i locker</Empty>
          ) : grid.isFetching && !lockers ? (
            <Loading />
          ) : !lockers || lockers.length === 0 ? (
            <Empty>Nessun locker disponibile per la location selezionata</Empty>
          ) : (
            <LockerGrid lockers={lockers} selected={choice.selected} onSelect={choice.pick} />
          )}
        </Card>
        {/* Another site: the last action's result belongs to the one before (a new key starts over). */}
        <LockerActionsCard
          key={locationKey}
          site={{ key: locationKey, zone }}
          choice={choice}
          reload={reload}
        />
      </div>
    </>
  );
}
