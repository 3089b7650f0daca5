import { adminRoutes, type ErrorLogEntry, type ProcessLogEntry } from '@deposito/protocol';
import { DateTime } from 'luxon';
import { useCallback, useEffect, useState } from 'react';
import { adminCall } from '../admin-api';
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
      <table className="adm-table">
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
              <td className="adm-nowrap">{when(entry.timestamp)}</td>
              <td>
                <span
                  className={`adm-tag ${entry.type.startsWith('admin/') ? 'adm-tag-info' : 'adm-tag-error'}`}
                >
                  {entry.type}
                </span>
              </td>
              <td>{entry.locationKey ?? '–'}</td>
              <td>{entry.lockerId ?? '–'}</td>
              <td className="adm-log-message">{entry.message}</td>
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

/** /admin/logs/archive: older entries, a page at a time. */
export function ArchiveLogPage() {
  const [entries, setEntries] = useState<ErrorLogEntry[] | null>(null);
  const [more, setMore] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const loadPage = useCallback(async (before?: string) => {
    try {
      const page = await adminCall(adminRoutes.errorArchive, { query: { before, limit: ARCHIVE_PAGE } });
      setEntries((current) => (before ? [...(current ?? []), ...page] : page));
      setMore(page.length === ARCHIVE_PAGE);
    } catch (failure) {
      setError(failure instanceof Error ? failure.message : 'Errore nel caricamento');
    }
  }, []);

  useEffect(() => {
    void loadPage();
  }, [loadPage]);

  return (
    <>
      <PageHeader title="Archive Log" subtitle="Archivio completo del log, dal più recente" />
      <Notice message={error ? { tone: 'error', text: error } : null} />
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
