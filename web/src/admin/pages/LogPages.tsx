import { adminRoutes, errorLogArchiveQuerySchema, type ErrorLogEntry } from '@deposito/protocol';
import { useInfiniteQuery, useQuery, type UseQueryResult } from '@tanstack/react-query';
import { DateTime } from 'luxon';
import { useState, type FormEvent, type ReactNode } from 'react';
import type { UseFormReturn } from 'react-hook-form';
import { z } from 'zod';
import { checkedRegister, formSubmit, useAdminForm, type FormNames } from '../forms/admin-form';
import { adminCall, errorText } from '../admin-api';
import { ApiError } from '../../api/http';
import { Card, Empty, Loading, Notice, PageHeader, TableRegion } from '../components/ui';
import { adminQueries } from '../query/queries';
import { Options } from '../../components/Options';
import { LocationOptions } from '../components/form-fields';

const ARCHIVE_PAGE = 100;

function when(iso: string): string {
  const time = DateTime.fromISO(iso).setZone('Europe/Rome');
  return time.isValid ? time.toFormat('dd/MM/yyyy HH:mm:ss') : 'Data non valida';
}

function ErrorTable({ entries }: { entries: ErrorLogEntry[] }) {
  if (entries.length === 0) return <Empty>Nessuna voce nel log</Empty>;
  return (
    <TableRegion
      label="Tabella del log"
      className="adm-table adm-table-cards"
      head={
        <>
          <th>Data</th>
          <th>Tipo</th>
          <th>Sede</th>
          <th>Locker</th>
          <th>Messaggio</th>
        </>
      }
    >
      {entries.map((entry) => (
        <tr key={entry.id}>
          <td className="adm-nowrap" data-label="Data">
            {when(entry.timestamp)}
          </td>
          <td data-label="Tipo">
            <span className={`adm-tag ${entry.type.startsWith('admin/') ? 'adm-tag-info' : 'adm-tag-error'}`}>
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
    </TableRegion>
  );
}

/**
 * A log page that reads its log in one go: the header with "Aggiorna" (which reads it again), the
 * read's failure in the page's words (`failure`), and in a card a spinner until the log is read,
 * then the log (`children`).
 */
function RefreshedLogPage<Entries>({
  title,
  subtitle,
  query,
  failure,
  children,
}: {
  title: string;
  subtitle: string;
  query: UseQueryResult<Entries>;
  failure: (error: Error) => string;
  children: (entries: Entries) => ReactNode;
}) {
  const error = query.isError ? failure(query.error) : null;
  return (
    <>
      <PageHeader
        title={title}
        subtitle={subtitle}
        actions={
          <button type="button" className="adm-btn adm-btn-secondary" onClick={() => void query.refetch()}>
            ↻ Aggiorna
          </button>
        }
      />
      <Notice message={error ? { tone: 'error', text: error } : null} />
      <Card>{query.data ? children(query.data) : error ? null : <Loading />}</Card>
    </>
  );
}

/** /admin/logs: "Log Errori", the latest errors and operator actions. */
export function ErrorLogPage() {
  const query = useQuery(adminQueries.recentErrors());
  return (
    <RefreshedLogPage
      title="Log Errori"
      subtitle="Errori e azioni degli amministratori, più recenti prima"
      query={query}
      failure={(error) => (error instanceof Error ? error.message : 'Errore nel caricamento')}
    >
      {(entries) => <ErrorTable entries={entries} />}
    </RefreshedLogPage>
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

/** The filters as typed, checked as the archive's query (a locker number, a day) before they apply. */
const archiveFilterSchema = z
  .object({
    type: z.string(),
    location: z.string(),
    locker: z.string(),
    from: z.string(),
    to: z.string(),
    q: z.string(),
  })
  .transform((filter): z.input<typeof errorLogArchiveQuerySchema> => archiveQuery(filter))
  .pipe(errorLogArchiveQuerySchema);

const ARCHIVE_FILTER_NAMES: FormNames = {
  labels: {
    type: 'Tipo',
    location: 'Sede',
    locker: 'Locker',
    from: 'Dal',
    before: 'Al',
    q: 'Testo o operatore',
  },
  fields: { before: 'to' },
};

/** The archive's filter bar: what it holds applies when the operator presses Filtra. */
function ArchiveFilterBar({
  form,
  filtered,
  onApply,
  onClear,
}: {
  form: UseFormReturn<ArchiveFilter, unknown, unknown>;
  filtered: boolean;
  onApply: (event?: FormEvent) => void;
  onClear: () => void;
}) {
  const register = checkedRegister(form);
  const locations = useQuery(adminQueries.locationSummaries()).data ?? [];
  const field = (label: string, input: ReactNode) => (
    <label className="adm-field adm-field-inline">
      <span className="adm-field-label">{label}</span>
      {input}
    </label>
  );
  return (
    <form className="adm-filterbar" role="search" aria-label="Filtri del log" noValidate onSubmit={onApply}>
      {field(
        'Tipo',
        <select className="adm-input" {...register('type')}>
          <Options items={ENTRY_KINDS} value={([value]) => value} label={([, label]) => label} />
        </select>,
      )}
      {field(
        'Sede',
        <select className="adm-input" {...register('location')}>
          <option value="">Tutte</option>
          <LocationOptions locations={locations} />
        </select>,
      )}
      {field(
        'Locker',
        <input className="adm-input adm-input-narrow" type="number" min={1} {...register('locker')} />,
      )}
      {field('Dal', <input className="adm-input" type="date" {...register('from')} />)}
      {field('Al', <input className="adm-input" type="date" {...register('to')} />)}
      {field(
        'Testo o operatore',
        <input className="adm-input" type="search" placeholder="es. mario@deposito.it" {...register('q')} />,
      )}
      <button type="submit" className="adm-btn adm-btn-secondary">
        Filtra
      </button>
      {filtered ? (
        <button type="button" className="adm-link" onClick={onClear}>
          Cancella filtri
        </button>
      ) : null}
    </form>
  );
}

/** /admin/logs/archive: older entries, a page at a time, narrowed as the operator asks (the audit trail). */
export function ArchiveLogPage() {
  const form = useAdminForm(archiveFilterSchema, NO_FILTER, ARCHIVE_FILTER_NAMES);
  const [applied, setApplied] = useState<ArchiveFilter>(NO_FILTER);
  const [problem, setProblem] = useState<string | null>(null);
  const apply = formSubmit(form, setProblem, async (_query, filter) => {
    setProblem(null);
    setApplied(filter);
  });
  // Each filter is its own list; "Carica altri" reads the next page before the last entry shown.
  const query = useInfiniteQuery({
    queryKey: ['logs', 'archive', applied],
    queryFn: ({ pageParam, signal }) =>
      adminCall(adminRoutes.errorArchive, { query: archiveQuery(applied, pageParam), signal }),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (page) => (page.length === ARCHIVE_PAGE ? page[page.length - 1]?.timestamp : undefined),
  });
  const entries = query.data?.pages.flat();
  const error = problem ?? (query.isError ? errorText(query.error, 'Errore nel caricamento') : null);

  const filtered = Object.values(applied).some(Boolean);
  return (
    <>
      <PageHeader
        title="Archive Log"
        subtitle="Archivio completo del log e delle azioni degli operatori, dal più recente"
      />
      <Notice message={error ? { tone: 'error', text: error } : null} />
      <Card>
        <ArchiveFilterBar
          form={form}
          filtered={filtered}
          onApply={apply}
          onClear={() => {
            setProblem(null);
            form.reset(NO_FILTER);
            setApplied(NO_FILTER);
          }}
        />
      </Card>
      <Card>
        {entries ? <ErrorTable entries={entries} /> : error ? null : <Loading />}
        {query.hasNextPage && entries ? (
          <div className="adm-form-actions">
            <button
              type="button"
              className="adm-btn adm-btn-secondary"
              onClick={() => void query.fetchNextPage()}
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
  const query = useQuery(adminQueries.processLogs());
  return (
    <RefreshedLogPage
      title="PM2 Logs"
      subtitle="Ultime righe del log del server"
      query={query}
      failure={(error) => `Errore ${error instanceof ApiError ? error.status || error.message : ''}`.trim()}
    >
      {(entries) =>
        entries.length === 0 ? (
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
        )
      }
    </RefreshedLogPage>
  );
}
