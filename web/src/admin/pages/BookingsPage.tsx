import { BOOKING_STATUSES, adminRoutes, type BookingStatus, type LocationSummary } from '@deposito/protocol';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useMemo, useState, type FormEvent } from 'react';
import { adminCall } from '../admin-api';
import { Card, HiddenHeader, Listed, Notice, PageHeader, TableRegion } from '../components/ui';
import { STATUS_LABELS, formatEuro, formatInZone, statusIcon, type StatusIconKind } from '../format';
import { csvEuros, downloadCsv, toCsv } from '../csv';
import { CleanupPanel } from './CleanupPanel';
import { useAdminRole } from '../admin-role';
import { BookingDetails } from './BookingDetails';
import { groupByTransaction, type BookingGroup } from './booking-groups';
import { adminQueries } from '../query/queries';
import { Options } from '../../components/Options';

/**
 * The bookings as shown (filters applied), one line per booking, times in each location's zone, for
 * a spreadsheet. Test bookings say so: they are not takings.
 */
export function bookingsCsv(
  groups: readonly BookingGroup[],
  zoneOf: ReadonlyMap<string, string>,
  nameOf: ReadonlyMap<string, string>,
): string {
  const header = [
    'Transazione',
    'Stato',
    'Sede',
    'Inizio',
    'Fine',
    'Dimensione',
    'Locker',
    'Nome',
    'Cognome',
    'Email',
    'Telefono',
    'Prezzo (€)',
    'Prezzo scontato (€)',
    'Creata',
    'Test',
  ];
  const euros = (value: number | null) => (value === null ? '' : csvEuros(Math.round(value * 100)));
  const rows = groups.map(({ transactionId, rows: lockers, first }) => {
    const zone = zoneOf.get(first.LOCATION_KEY) ?? 'Europe/Rome';
    return [
      transactionId,
      STATUS_LABELS[first.STATUS],
      nameOf.get(first.LOCATION_KEY) ?? first.LOCATION_KEY,
      formatInZone(first.START_TIME, zone),
      formatInZone(first.END_TIME, zone),
      first.locker_type,
      lockers
        .map((row) => row.locker_id)
        .filter((id): id is number => id !== null)
        .join(', '),
      first.nome,
      first.cognome,
      first.email,
      [first.telefono_prefisso, first.telefono_numero].filter(Boolean).join(' '),
      euros(first.price_original),
      euros(first.price_discounted),
      formatInZone(first.created_at, zone),
      first.is_test ? 'sì' : '',
    ];
  });
  return toCsv(header, rows);
}

/** Drawn, not emoji: the icons look the same whatever fonts the operator's machine has. */
const ICON_PATHS: Record<StatusIconKind, string> = {
  cross: 'M4 4l8 8M12 4l-8 8',
  check: 'M3 8.5l3.2 3.2L13 5',
  clock: 'M8 2.5a5.5 5.5 0 1 0 0 11a5.5 5.5 0 1 0 0-11M8 5v3.2l2.2 1.4',
  hourglass: 'M4.5 2.5h7M4.5 13.5h7M5 2.5c0 3 6 4 6 5.5S5 10.5 5 13.5M11 2.5c0 3-6 4-6 5.5s6 2.5 6 5.5',
  dot: 'M8 6.5a1.5 1.5 0 1 0 0 3a1.5 1.5 0 1 0 0-3',
};

function StatusIcon({ status }: { status: string }) {
  const { icon, tone } = statusIcon(status);
  return (
    <span className={`adm-status-icon adm-tone-${tone}`} title={status} role="img" aria-label={status}>
      <svg
        viewBox="0 0 16 16"
        fill="none"
        stroke="currentColor"
        strokeWidth="2"
        strokeLinecap="round"
        strokeLinejoin="round"
        aria-hidden="true"
      >
        <path d={ICON_PATHS[icon]} />
      </svg>
    </span>
  );
}

type BookingNotice = { tone: 'success' | 'error'; text: string };

/** The search over every booking: at least 2 characters; "Torna alle recenti" goes back to the list. */
function BookingsSearch({
  searched,
  onSearch,
}: {
  searched: string | null;
  onSearch: (q: string | null) => void;
}) {
  const [searchText, setSearchText] = useState('');
  const searchTooShort = searchText.trim().length === 1;
  function runSearch(event: FormEvent) {
    event.preventDefault();
    if (!searchTooShort) onSearch(searchText.trim() || null);
  }
  return (
    <>
      <form className="adm-filterbar" role="search" onSubmit={runSearch}>
        <label className="adm-field adm-field-inline adm-search-field">
          <span className="adm-field-label">Cerca</span>
          <input
            className="adm-input"
            type="search"
            value={searchText}
            placeholder="Nome, e-mail, telefono o codice"
            aria-describedby={searchTooShort ? 'bookings-search-hint' : undefined}
            onChange={(e) => setSearchText(e.target.value)}
          />
        </label>
        <button type="submit" className="adm-btn adm-btn-secondary" disabled={searchTooShort}>
          Cerca
        </button>
        {searched ? (
          <button
            type="button"
            className="adm-link"
            onClick={() => {
              setSearchText('');
              onSearch(null);
            }}
          >
            Torna alle recenti
          </button>
        ) : null}
        {searchTooShort ? (
          <span id="bookings-search-hint" className="adm-muted">
            Scrivi almeno 2 caratteri
          </span>
        ) : null}
      </form>
      {searched ? (
        <p className="adm-muted" role="status">
          Risultati per «{searched}», anche tra le prenotazioni meno recenti
        </p>
      ) : null}
    </>
  );
}

/** How many bookings each choice of one filter would show, given the other filter. */
function countBy(
  groups: readonly BookingGroup[],
  of: (group: BookingGroup) => string,
  keep: (group: BookingGroup) => boolean,
) {
  const counts = new Map<string, number>();
  for (const group of groups) {
    if (keep(group)) counts.set(of(group), (counts.get(of(group)) ?? 0) + 1);
  }
  return counts;
}

const total = (counts: Map<string, number>) => [...counts.values()].reduce((a, b) => a + b, 0);

interface Filters {
  status: string;
  location: string;
}

/** What each filter looks at in a transaction. */
const FILTERED: Record<keyof Filters, (group: BookingGroup) => string> = {
  status: (group) => group.first.STATUS,
  location: (group) => group.first.LOCATION_KEY,
};

/** Whether `group` passes every filter that is set, leaving out `ignored` (to count that filter's choices). */
function passes(group: BookingGroup, filters: Filters, ignored?: keyof Filters): boolean {
  return (Object.keys(FILTERED) as (keyof Filters)[]).every(
    (name) => name === ignored || !filters[name] || FILTERED[name](group) === filters[name],
  );
}

/** The status and site filters with their counts, and the status chips. */
function BookingsFilters({
  groups,
  shown,
  filters,
  nameOf,
  onChange,
}: {
  groups: readonly BookingGroup[];
  shown: number;
  filters: Filters;
  /** The sites' names by key. */
  nameOf: ReadonlyMap<string, string>;
  onChange: (filters: Filters) => void;
}) {
  // Every site, and any other site key a listed booking carries.
  const locationKeys = useMemo(
    () => [...new Set([...nameOf.keys(), ...groups.map(FILTERED.location)])],
    [nameOf, groups],
  );
  // Each choice's count: the transactions it would show, within what the other filter lets through.
  const countsOf = (name: keyof Filters) =>
    countBy(groups, FILTERED[name], (group) => passes(group, filters, name));
  const statusCounts = countsOf('status');
  /** One filter's select: "all" first, then each value by its name, each with its count. */
  const choice = <Value extends string>(
    name: keyof Filters,
    label: string,
    everything: string,
    values: readonly Value[],
    nameOfValue: (value: Value) => string,
  ) => {
    const counts = countsOf(name);
    return (
      <label className="adm-field adm-field-inline">
        <span className="adm-field-label">{label}</span>
        <select
          className="adm-input"
          value={filters[name]}
          onChange={(e) => onChange({ ...filters, [name]: e.target.value })}
          aria-label={label}
        >
          <option value="">
            {everything} ({total(counts)})
          </option>
          <Options
            items={values}
            value={(value) => value}
            label={(value) => `${nameOfValue(value)} (${counts.get(value) ?? 0})`}
          />
        </select>
      </label>
    );
  };
  return (
    <>
      <div className="adm-filterbar">
        {choice('status', 'Stato', 'Tutti gli stati', BOOKING_STATUSES, (status) => STATUS_LABELS[status])}
        {choice('location', 'Sede', 'Tutte le sedi', locationKeys, (key) => nameOf.get(key) ?? key)}
        <span className="adm-muted">
          Mostrando {shown} di {groups.length} prenotazioni
        </span>
        {filters.status || filters.location ? (
          <button type="button" className="adm-link" onClick={() => onChange({ status: '', location: '' })}>
            Cancella filtri
          </button>
        ) : null}
      </div>
      <div className="adm-chips adm-chips-bar">
        {BOOKING_STATUSES.filter((status: BookingStatus) => statusCounts.get(status)).map((status) => (
          <button
            type="button"
            key={status}
            className={`adm-chip adm-chip-button${filters.status === status ? ' adm-chip-active' : ''}`}
            aria-pressed={filters.status === status}
            onClick={() => onChange({ ...filters, status: filters.status === status ? '' : status })}
          >
            <StatusIcon status={status} /> {STATUS_LABELS[status]} <strong>{statusCounts.get(status)}</strong>
          </button>
        ))}
      </div>
    </>
  );
}

/** One transaction's line, and its details under it when open. */
function BookingGroupRows({
  group,
  zone,
  sameSize,
  isOpen,
  onToggle,
  onMessage,
}: {
  group: BookingGroup;
  zone: string;
  sameSize: readonly number[];
  isOpen: boolean;
  onToggle: () => void;
  /** What the page shows after an action, whether or not it changed the booking. */
  onMessage: (message: BookingNotice) => void;
}) {
  const row = group.first;
  const lockers = group.rows.map((r) => r.locker_id).filter((id): id is number => id !== null);
  return (
    <>
      <tr className={isOpen ? 'adm-row-open' : undefined}>
        <td data-label="Stato">
          <StatusIcon status={row.STATUS} />
        </td>
        <td className="adm-mono adm-ellipsis" title={group.transactionId} data-label="Transazione">
          {row.is_test ? (
            <>
              <span className="adm-tag adm-tag-info" title="Prenotazione di test: esclusa dagli incassi">
                Test
              </span>{' '}
            </>
          ) : null}
          {group.transactionId}
        </td>
        <td data-label="Sede">{row.LOCATION_KEY}</td>
        <td className="adm-nowrap" data-label="Inizio">
          {formatInZone(row.START_TIME, zone)}
        </td>
        <td className="adm-nowrap" data-label="Fine">
          {formatInZone(row.END_TIME, zone)}
        </td>
        <td data-label="Locker">{lockers.length > 0 ? lockers.join(', ') : '–'}</td>
        <td className="adm-ellipsis" data-label="Cliente">
          {[row.nome, row.cognome].filter(Boolean).join(' ') || '–'}
        </td>
        <td className="adm-num" data-label="Prezzo">
          {formatEuro(row.price_discounted)}
        </td>
        <td className="adm-card-action">
          <button type="button" className="adm-link" aria-expanded={isOpen} onClick={onToggle}>
            {isOpen ? 'Nascondi' : 'Dettagli'}
          </button>
        </td>
      </tr>
      {isOpen ? (
        <tr className="adm-details-row">
          <td colSpan={9}>
            <BookingDetails
              group={group}
              lockers={lockers}
              zone={zone}
              sameSize={[...sameSize]}
              // The action's own mutation has read the bookings again (useAdminAction): a change is
              // told like any other message.
              onNotice={onMessage}
              onChanged={onMessage}
            />
          </td>
        </tr>
      ) : null}
    </>
  );
}

/** The transactions shown, one line each, with the open one's details. */
function BookingsTable({
  groups,
  zoneOf,
  structureOf,
  onMessage,
}: {
  groups: readonly BookingGroup[];
  zoneOf: ReadonlyMap<string, string>;
  structureOf: ReadonlyMap<string, LocationSummary['lockerStructure']>;
  onMessage: (message: BookingNotice) => void;
}) {
  /** The transaction whose details are open. */
  const [openId, setOpenId] = useState<string | null>(null);
  return (
    <TableRegion
      label="Tabella prenotazioni"
      className="adm-table adm-table-cards"
      head={
        <>
          <HiddenHeader>Stato</HiddenHeader>
          <th>Transazione</th>
          <th>Sede</th>
          <th>Inizio</th>
          <th>Fine</th>
          <th>Locker</th>
          <th>Cliente</th>
          <th className="adm-num">Prezzo</th>
          <HiddenHeader>Dettagli</HiddenHeader>
        </>
      }
    >
      {groups.map((group) => (
        <BookingGroupRows
          key={group.transactionId}
          group={group}
          zone={zoneOf.get(group.first.LOCATION_KEY) ?? 'Europe/Rome'}
          sameSize={structureOf.get(group.first.LOCATION_KEY)?.[group.first.locker_type] ?? []}
          isOpen={openId === group.transactionId}
          onToggle={() => setOpenId(openId === group.transactionId ? null : group.transactionId)}
          onMessage={onMessage}
        />
      ))}
    </TableRegion>
  );
}

export function BookingsPage() {
  const role = useAdminRole();
  const queryClient = useQueryClient();
  /** The search the list shows (null: the recent bookings). */
  const [searched, setSearched] = useState<string | null>(null);
  const bookings = useQuery({
    queryKey: ['bookings', searched],
    queryFn: ({ signal }) =>
      adminCall(adminRoutes.recentBookings, { query: searched ? { q: searched } : {}, signal }),
  });
  const sites = useQuery(adminQueries.locationSummaries());
  const failed = bookings.isError || sites.isError;
  // Loading until both lists are read; after a failure, what was read (the error says the rest).
  const rows = useMemo(
    () => (failed ? (bookings.data ?? []) : bookings.data && sites.data ? bookings.data : null),
    [failed, bookings.data, sites.data],
  );
  const locations: LocationSummary[] = useMemo(() => sites.data ?? [], [sites.data]);
  const [filters, setFilters] = useState<Filters>({ status: '', location: '' });
  const [notice, setNotice] = useState<BookingNotice | null>(null);

  const reload = () => {
    void queryClient.invalidateQueries({ queryKey: ['bookings'] });
    if (sites.isError) void sites.refetch();
  };
  const groups = useMemo(() => groupByTransaction(rows ?? []), [rows]);
  const zoneOf = useMemo(() => new Map(locations.map((l) => [l.key, l.timezone])), [locations]);
  const structureOf = useMemo(() => new Map(locations.map((l) => [l.key, l.lockerStructure])), [locations]);
  const nameOf = useMemo(() => new Map(locations.map((l) => [l.key, l.nome])), [locations]);
  const shown = groups.filter((group) => passes(group, filters));

  return (
    <>
      <PageHeader
        title="Prenotazioni"
        subtitle="Prenotazioni recenti raggruppate per transazione"
        actions={
          <>
            <button
              type="button"
              className="adm-btn adm-btn-secondary"
              disabled={shown.length === 0}
              title="Le prenotazioni mostrate, con i filtri scelti"
              onClick={() =>
                downloadCsv(
                  `prenotazioni-${new Date().toISOString().slice(0, 10)}.csv`,
                  bookingsCsv(shown, zoneOf, nameOf),
                )
              }
            >
              Esporta CSV
            </button>
            <button type="button" className="adm-btn adm-btn-secondary" onClick={reload}>
              ↻ Aggiorna
            </button>
          </>
        }
      />
      {/* Deleting bookings is every site's business: an administrator's only (auth/roles.ts). */}
      {role === 'administrator' ? <CleanupPanel /> : null}
      <Notice
        message={failed ? { tone: 'error', text: 'Errore nel caricamento prenotazioni o sedi' } : null}
      />
      <Notice message={notice} onClose={() => setNotice(null)} />
      <Card>
        <BookingsSearch searched={searched} onSearch={setSearched} />
        <BookingsFilters
          groups={groups}
          shown={shown.length}
          filters={filters}
          nameOf={nameOf}
          onChange={setFilters}
        />
      </Card>
      <Card>
        <Listed items={rows === null ? null : shown} empty="Nessuna prenotazione">
          {(groups) => (
            <BookingsTable groups={groups} zoneOf={zoneOf} structureOf={structureOf} onMessage={setNotice} />
          )}
        </Listed>
      </Card>
    </>
  );
}
