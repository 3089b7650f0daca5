import {
  BOOKING_STATUSES,
  adminRoutes,
  locationRoutes,
  type BookingRow,
  type LocationSummary,
} from '@deposito/protocol';
import { Fragment, useCallback, useEffect, useMemo, useState, type FormEvent } from 'react';
import { adminCall } from '../admin-api';
import { Card, Empty, Loading, Notice, PageHeader } from '../components/ui';
import { STATUS_LABELS, formatEuro, formatInZone, statusIcon, type StatusIconKind } from '../format';
import { csvEuros, downloadCsv, toCsv } from '../csv';
import { CleanupPanel } from './CleanupPanel';
import { useAdminRole } from '../admin-role';
import { BookingDetails } from './BookingDetails';
import { groupByTransaction, type BookingGroup } from './booking-groups';

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

export function BookingsPage() {
  const role = useAdminRole();
  const [rows, setRows] = useState<BookingRow[] | null>(null);
  const [locations, setLocations] = useState<LocationSummary[]>([]);
  const [error, setError] = useState<string | null>(null);
  const [statusFilter, setStatusFilter] = useState('');
  const [locationFilter, setLocationFilter] = useState('');
  const [openId, setOpenId] = useState<string | null>(null);
  const [notice, setNotice] = useState<{ tone: 'success' | 'error'; text: string } | null>(null);
  /** What the search field holds, and the search the list shows (null: the recent bookings). */
  const [searchText, setSearchText] = useState('');
  const [searched, setSearched] = useState<string | null>(null);

  const load = useCallback(async () => {
    setError(null);
    try {
      const [bookingRows, locationList] = await Promise.all([
        adminCall(adminRoutes.recentBookings, { query: searched ? { q: searched } : {} }),
        adminCall(locationRoutes.listLocations, { timeoutMs: 5_000 }),
      ]);
      setRows(bookingRows);
      setLocations(locationList);
    } catch {
      setError('Errore nel caricamento prenotazioni o sedi');
      setRows((current) => current ?? []);
    }
  }, [searched]);

  const searchTooShort = searchText.trim().length === 1;
  function runSearch(event: FormEvent) {
    event.preventDefault();
    if (searchTooShort) return;
    setRows(null);
    setSearched(searchText.trim() || null);
  }

  useEffect(() => {
    void load();
  }, [load]);

  const groups = useMemo(() => groupByTransaction(rows ?? []), [rows]);
  const zoneOf = useMemo(() => new Map(locations.map((l) => [l.key, l.timezone])), [locations]);
  const structureOf = useMemo(() => new Map(locations.map((l) => [l.key, l.lockerStructure])), [locations]);
  const nameOf = useMemo(() => new Map(locations.map((l) => [l.key, l.nome])), [locations]);

  const statusCounts = useMemo(() => {
    const counts = new Map<string, number>();
    for (const group of groups) {
      if (locationFilter && group.first.LOCATION_KEY !== locationFilter) continue;
      counts.set(group.first.STATUS, (counts.get(group.first.STATUS) ?? 0) + 1);
    }
    return counts;
  }, [groups, locationFilter]);
  const locationCounts = useMemo(() => {
    const counts = new Map<string, number>();
    for (const group of groups) {
      if (statusFilter && group.first.STATUS !== statusFilter) continue;
      counts.set(group.first.LOCATION_KEY, (counts.get(group.first.LOCATION_KEY) ?? 0) + 1);
    }
    return counts;
  }, [groups, statusFilter]);
  const locationKeys = useMemo(
    () => [...new Set([...locations.map((l) => l.key), ...groups.map((g) => g.first.LOCATION_KEY)])],
    [locations, groups],
  );

  const shown = groups.filter(
    (group) =>
      (!statusFilter || group.first.STATUS === statusFilter) &&
      (!locationFilter || group.first.LOCATION_KEY === locationFilter),
  );

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
            <button type="button" className="adm-btn adm-btn-secondary" onClick={() => void load()}>
              ↻ Aggiorna
            </button>
          </>
        }
      />
      {/* Deleting bookings is every site's business: an administrator's only (auth/roles.ts). */}
      {role === 'administrator' ? <CleanupPanel onDeleted={() => void load()} /> : null}
      <Notice message={error ? { tone: 'error', text: error } : null} />
      <Notice message={notice} onClose={() => setNotice(null)} />
      <Card>
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
                setRows(null);
                setSearched(null);
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
        <div className="adm-filterbar">
          <label className="adm-field adm-field-inline">
            <span className="adm-field-label">Stato</span>
            <select
              className="adm-input"
              value={statusFilter}
              onChange={(e) => setStatusFilter(e.target.value)}
              aria-label="Stato"
            >
              <option value="">
                Tutti gli stati ({[...statusCounts.values()].reduce((a, b) => a + b, 0)})
              </option>
              {BOOKING_STATUSES.map((status) => (
                <option key={status} value={status}>
                  {STATUS_LABELS[status]} ({statusCounts.get(status) ?? 0})
                </option>
              ))}
            </select>
          </label>
          <label className="adm-field adm-field-inline">
            <span className="adm-field-label">Sede</span>
            <select
              className="adm-input"
              value={locationFilter}
              onChange={(e) => setLocationFilter(e.target.value)}
              aria-label="Sede"
            >
              <option value="">
                Tutte le sedi ({[...locationCounts.values()].reduce((a, b) => a + b, 0)})
              </option>
              {locationKeys.map((key) => (
                <option key={key} value={key}>
                  {nameOf.get(key) ?? key} ({locationCounts.get(key) ?? 0})
                </option>
              ))}
            </select>
          </label>
          <span className="adm-muted">
            Mostrando {shown.length} di {groups.length} prenotazioni
          </span>
          {statusFilter || locationFilter ? (
            <button
              type="button"
              className="adm-link"
              onClick={() => {
                setStatusFilter('');
                setLocationFilter('');
              }}
            >
              Cancella filtri
            </button>
          ) : null}
        </div>
        <div className="adm-chips adm-chips-bar">
          {BOOKING_STATUSES.filter((status) => statusCounts.get(status)).map((status) => (
            <button
              type="button"
              key={status}
              className={`adm-chip adm-chip-button${statusFilter === status ? ' adm-chip-active' : ''}`}
              aria-pressed={statusFilter === status}
              onClick={() => setStatusFilter(statusFilter === status ? '' : status)}
            >
              <StatusIcon status={status} /> {STATUS_LABELS[status]}{' '}
              <strong>{statusCounts.get(status)}</strong>
            </button>
          ))}
        </div>
      </Card>
      <Card>
        {rows === null ? (
          <Loading />
        ) : shown.length === 0 ? (
          <Empty>Nessuna prenotazione</Empty>
        ) : (
          <div className="adm-table-wrap" tabIndex={0} role="region" aria-label="Tabella prenotazioni">
            <table className="adm-table adm-table-cards">
              <thead>
                <tr>
                  <th>
                    <span className="visually-hidden">Stato</span>
                  </th>
                  <th>Transazione</th>
                  <th>Sede</th>
                  <th>Inizio</th>
                  <th>Fine</th>
                  <th>Locker</th>
                  <th>Cliente</th>
                  <th className="adm-num">Prezzo</th>
                  <th>
                    <span className="visually-hidden">Dettagli</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {shown.map((group) => {
                  const row = group.first;
                  const zone = zoneOf.get(row.LOCATION_KEY) ?? 'Europe/Rome';
                  const isOpen = openId === group.transactionId;
                  const lockers = group.rows
                    .map((r) => r.locker_id)
                    .filter((id): id is number => id !== null);
                  return (
                    <Fragment key={group.transactionId}>
                      <tr className={isOpen ? 'adm-row-open' : undefined}>
                        <td data-label="Stato">
                          <StatusIcon status={row.STATUS} />
                        </td>
                        <td
                          className="adm-mono adm-ellipsis"
                          title={group.transactionId}
                          data-label="Transazione"
                        >
                          {row.is_test ? (
                            <>
                              <span
                                className="adm-tag adm-tag-info"
                                title="Prenotazione di test: esclusa dagli incassi"
                              >
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
                          <button
                            type="button"
                            className="adm-link"
                            aria-expanded={isOpen}
                            onClick={() => setOpenId(isOpen ? null : group.transactionId)}
                          >
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
                              sameSize={structureOf.get(row.LOCATION_KEY)?.[row.locker_type] ?? []}
                              onNotice={setNotice}
                              onChanged={(message) => {
                                setNotice(message);
                                void load();
                              }}
                            />
                          </td>
                        </tr>
                      ) : null}
                    </Fragment>
                  );
                })}
              </tbody>
            </table>
          </div>
        )}
      </Card>
    </>
  );
}
