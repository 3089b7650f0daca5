import {
  adminRoutes,
  locationRoutes,
  type ErrorLogEntry,
  type LocationSummary,
  type ProcessLogEntry,
} from '@deposito/protocol';
import { DateTime } from 'luxon';
import { useCallback, useEffect, useState, type FormEvent } from 'react';
import { adminCall, errorText } from '../admin-api';
import { ApiError } from '../../api/http';
import { Card, Empty, Loading, Notice, PageHeader } from '../components/ui';

const ARCHIVE_PAGE = 100;

function when(iso: string): string {
  const time = DateTime.fromISO(iso).setZone('Europe/Rome');
  return time.isValid ? time.toFormat('dd/MM/yyyy HH:mm:ss') : 'Data non valida';
}

function ErrorTable({ entries }: { entries: ErrorLogEntry[] }) {
  if (entries.length === 0) return <Empty>Nessuna voce nel log</Empty>;
  return (
    <div className="adm-table-wrap" tabIndex={0} role="region" aria-label="Tabella del log">
      <table className="adm-table adm-table-cards">
        <thead>
          <tr>
            <th>Data</th>
            <th>Tipo</th>
            <th>Sede</th>
            <th>Locker</th>
            <th>Messaggio</th>
          </tr>
        </thead>
        <tbody>
          {entries.map((entry) => (
            <tr key={entry.id}>
              <td className="adm-nowrap" data-label="Data">
                {when(entry.timestamp)}
              </td>
              <td data-label="Tipo">
                <span
                  className={`adm-tag ${entry.type.startsWith('admin/') ? 'adm-tag-info' : 'adm-tag-error'}`}
                >
                  {entry.type}
                </span>
              </td>
              <td data-label="Sede">{entry.locationKey ?? '–'}</td>
              <td data-label="Locker">{entry.lockerId ?? '–'}</td>
              <td className="adm-log-message" data-label="Messaggio">
                {entry.message}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** /admin/logs: "Log Errori", the latest errors and operator actions. */
export function ErrorLogPage() {
  const [entries, setEntries] = useState<ErrorLogEntry[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const load = useCallback(() => {
    setError(null);
    adminCall(adminRoutes.recentErrors, {})
      .then(setEntries)
      .catch((failure: unknown) =>
        setError(failure instanceof Error ? failure.message : 'Errore nel caricamento'),
      );
  }, []);
  useEffect(load, [load]);
  return (
    <>
      <PageHeader
        title="Log Errori"
        subtitle="Errori e azioni degli amministratori, più recenti prima"
        actions={
          <button type="button" className="adm-btn adm-btn-secondary" onClick={load}>
            ↻ Aggiorna
          </button>
        }
      />
      <Notice message={error ? { tone: 'error', text: error } : null} />
      <Card>{entries ? <ErrorTable entries={entries} /> : error ? null : <Loading />}</Card>
    </>
  );
}

/** The kinds of entry the archive can be narrowed to: a type, or a family of types ending in "/". */
const ENTRY_KINDS = [
  ['', 'Tutti'],
  ['admin/', 'Azioni degli operatori'],
  ['admin/locker_command', 'Comandi ai locker'],
  ['bridge/', 'Bridge'],
  ['payment', 'Pagamenti e rimborsi'],
] as const;

/** The audit trail's filters as the form holds them (empty: not applied). */
interface ArchiveFilter {
  type: string;
  location: string;
  locker: string;
  from: string;
  to: string;
  q: string;
}

const NO_FILTER: ArchiveFilter = { type: '', location: '', locker: '', from: '', to: '', q: '' };

/** A day of the form (`yyyy-MM-dd`) as the instant it starts in Rome, the sites' usual zone. */
const dayStart = (day: string) => DateTime.fromISO(day, { zone: 'Europe/Rome' }).startOf('day');

/** The filters as the archive call takes them; `before` is the page's own bound or the period's end. */
function archiveQuery(filter: ArchiveFilter, before?: string) {
  const end = filter.to ? dayStart(filter.to).plus({ days: 1 }).toUTC().toISO()! : undefined;
  return {
    limit: ARCHIVE_PAGE,
    ...((before ?? end) && { before: before ?? end }),
    ...(filter.from && { from: dayStart(filter.from).toUTC().toISO()! }),
    ...(filter.type && { type: filter.type }),
    ...(filter.location && { location: filter.location }),
    ...(filter.locker && { locker: Number(filter.locker) }),
    ...(filter.q.trim().length >= 2 && { q: filter.q.trim() }),
  };
}

/** /admin/logs/archive: older entries, a page at a time, narrowed as the operator asks (the audit trail). */
export function ArchiveLogPage() {
  const [entries, setEntries] = useState<ErrorLogEntry[] | null>(null);
  const [more, setMore] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [locations, setLocations] = useState<LocationSummary[]>([]);
  const [form, setForm] = useState<ArchiveFilter>(NO_FILTER);
  const [applied, setApplied] = useState<ArchiveFilter>(NO_FILTER);
  const set = (key: keyof ArchiveFilter, value: string) =>
    setForm((current) => ({ ...current, [key]: value }));

  const loadPage = useCallback(
    async (before?: string) => {
      setError(null);
      try {
        const page = await adminCall(adminRoutes.errorArchive, { query: archiveQuery(applied, before) });
        setEntries((current) => (before ? [...(current ?? []), ...page] : page));
        setMore(page.length === ARCHIVE_PAGE);
      } catch (failure) {
        setError(errorText(failure, 'Errore nel caricamento'));
      }
    },
    [applied],
  );

  useEffect(() => {
    void loadPage();
  }, [loadPage]);
  useEffect(() => {
    adminCall(locationRoutes.listLocations, { timeoutMs: 5_000 })
      .then(setLocations)
      .catch(() => setLocations([]));
  }, []);

  function apply(event: FormEvent) {
    event.preventDefault();
    setEntries(null);
    setApplied(form);
  }

  const filtered = Object.values(applied).some(Boolean);
  return (
    <>
      <PageHeader
        title="Archive Log"
        subtitle="Archivio completo del log e delle azioni degli operatori, dal più recente"
      />
      <Notice message={error ? { tone: 'error', text: error } : null} />
      <Card>
        <form className="adm-filterbar" role="search" aria-label="Filtri del log" onSubmit={apply}>
          <label className="adm-field adm-field-inline">
            <span className="adm-field-label">Tipo</span>
            <select className="adm-input" value={form.type} onChange={(e) => set('type', e.target.value)}>
              {ENTRY_KINDS.map(([value, label]) => (
                <option key={value} value={value}>
                  {label}
                </option>
              ))}
            </select>
          </label>
          <label className="adm-field adm-field-inline">
            <span className="adm-field-label">Sede</span>
            <select
              className="adm-input"
              value={form.location}
              onChange={(e) => set('location', e.target.value)}
            >
              <option value="">Tutte</option>
              {locations.map((location) => (
                <option key={location.key} value={location.key}>
                  {location.nome}
                </option>
              ))}
            </select>
          </label>
          <label className="adm-field adm-field-inline">
            <span className="adm-field-label">Locker</span>
            <input
              className="adm-input adm-input-narrow"
              type="number"
              min={1}
              value={form.locker}
              onChange={(e) => set('locker', e.target.value)}
            />
          </label>
          <label className="adm-field adm-field-inline">
            <span className="adm-field-label">Dal</span>
            <input
              className="adm-input"
              type="date"
              value={form.from}
              onChange={(e) => set('from', e.target.value)}
            />
          </label>
          <label className="adm-field adm-field-inline">
            <span className="adm-field-label">Al</span>
            <input
              className="adm-input"
              type="date"
              value={form.to}
              onChange={(e) => set('to', e.target.value)}
            />
          </label>
          <label className="adm-field adm-field-inline">
            <span className="adm-field-label">Testo o operatore</span>
            <input
              className="adm-input"
              type="search"
              value={form.q}
              placeholder="es. mario@deposito.it"
              onChange={(e) => set('q', e.target.value)}
            />
          </label>
          <button type="submit" className="adm-btn adm-btn-secondary">
            Filtra
          </button>
          {filtered ? (
            <button
              type="button"
              className="adm-link"
              onClick={() => {
                setForm(NO_FILTER);
                setEntries(null);
                setApplied(NO_FILTER);
              }}
            >
              Cancella filtri
            </button>
          ) : null}
        </form>
      </Card>
      <Card>
        {entries ? <ErrorTable entries={entries} /> : error ? null : <Loading />}
        {more && entries ? (
          <div className="adm-form-actions">
            <button
              type="button"
              className="adm-btn adm-btn-secondary"
              onClick={() => void loadPage(entries[entries.length - 1]?.timestamp)}
            >
              Carica altri
            </button>
          </div>
        ) : null}
      </Card>
    </>
  );
}

function levelOf(line: string): { label: string; tone: string } {
  try {
    const level = (JSON.parse(line) as { level?: number }).level ?? 30;
    if (level >= 50) return { label: 'ERROR', tone: 'error' };
    if (level >= 40) return { label: 'WARN', tone: 'warn' };
    if (level >= 30) return { label: 'INFO', tone: 'info' };
    return { label: 'DEBUG', tone: 'muted' };
  } catch {
    return { label: 'TEXT', tone: 'muted' };
  }
}

interface LogLine {
  msg?: unknown;
  time?: unknown;
  req?: { method?: string; url?: string };
  res?: { statusCode?: number };
  responseTime?: number;
  err?: { message?: string };
  [field: string]: unknown;
}

/** A pino line as one readable line: time, message, and a request's method, path, status and duration. */
export function readableLogLine(line: string): string {
  let parsed: LogLine;
  try {
    parsed = JSON.parse(line) as LogLine;
  } catch {
    return line;
  }
  const {
    msg,
    time,
    req,
    res,
    responseTime,
    err,
    level: _level,
    pid: _pid,
    hostname: _host,
    reqId: _reqId,
    ...rest
  } = parsed;
  const at =
    typeof time === 'number'
      ? DateTime.fromMillis(time).setZone('Europe/Rome').toFormat('dd/MM HH:mm:ss')
      : '';
  const parts = [at, String(msg ?? '')];
  if (req?.method) {
    parts.push(`${req.method} ${req.url ?? ''}`);
    if (res?.statusCode) parts.push(`→ ${res.statusCode}`);
    if (typeof responseTime === 'number') parts.push(`${responseTime} ms`);
  }
  if (err?.message) parts.push(`· ${err.message}`);
  if (Object.keys(rest).length > 0) parts.push(JSON.stringify(rest));
  return parts.filter(Boolean).join(' ');
}

/** "PM2 Logs": the server's own recent log lines. */
export function ProcessLogPage() {
  const [entries, setEntries] = useState<ProcessLogEntry[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const load = useCallback(() => {
    setError(null);
    adminCall(adminRoutes.processLogs, {})
      .then(setEntries)
      .catch((failure: unknown) =>
        setError(`Errore ${failure instanceof ApiError ? failure.status || failure.message : ''}`.trim()),
      );
  }, []);
  useEffect(load, [load]);
  return (
    <>
      <PageHeader
        title="PM2 Logs"
        subtitle="Ultime righe del log del server"
        actions={
          <button type="button" className="adm-btn adm-btn-secondary" onClick={load}>
            ↻ Aggiorna
          </button>
        }
      />
      <Notice message={error ? { tone: 'error', text: error } : null} />
      <Card>
        {entries === null ? (
          error ? null : (
            <Loading />
          )
        ) : entries.length === 0 ? (
          <Empty>Nessuna riga di log</Empty>
        ) : (
          // It scrolls when long: a tab stop, so keyboard users can scroll it too.
          <ol className="adm-console" tabIndex={0} aria-label="Righe del log del processo">
            {entries.map((entry, index) => {
              const level = levelOf(entry.log);
              return (
                <li key={index}>
                  <span className={`adm-level adm-level-${level.tone}`}>{level.label}</span>
                  <span className="adm-console-name">{entry.name}</span>
                  <span className="adm-console-text">{readableLogLine(entry.log)}</span>
                </li>
              );
            })}
          </ol>
        )}
      </Card>
    </>
  );
}
