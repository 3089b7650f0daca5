import {
  BOOKING_STATUSES,
  MAX_CLEANUP_AGE_DAYS,
  cleanupRoutes,
  type BookingStatus,
  type CleanupKept,
  type CleanupPreview,
  type CleanupStats,
} from '@deposito/protocol';
import { useEffect, useState } from 'react';
import { adminCall } from '../admin-api';
import { useConfirm } from '../components/use-confirm';
import { ApiError, CLIENT_ERROR_CODES } from '../../api/http';
import { Notice, type NoticeMessage } from '../components/ui';
import { STATUS_LABELS } from '../format';

/** The preview reloads this long after the last filter change (admin spec §4). */
export const PREVIEW_DEBOUNCE_MS = 500;

function failureText(error: unknown, fallback: string): string {
  if (error instanceof ApiError) {
    if (error.code === CLIENT_ERROR_CODES.network || error.code === CLIENT_ERROR_CODES.timeout) {
      return 'Errore di connessione al server';
    }
    if (!error.code.startsWith('client/') && error.message) return error.message;
  }
  return fallback;
}

/** What the filter matched but the server keeps: paid, owed or holding lockers, and not ended yet. */
function keptText(kept: CleanupKept | undefined): string | null {
  if (!kept || kept.totalTransactions === 0) return null;
  const statuses = kept.statusBreakdown.map((entry) => `${STATUS_LABELS[entry.status]}: ${entry.count}`);
  return (
    `${kept.totalBookings} prenotazioni (${kept.totalTransactions} transazioni) non verranno eliminate: ` +
    `pagate, da rimborsare o attive e non ancora terminate (${statuses.join(', ')})`
  );
}

/** "Gestione Database": statistics, a live preview of what the filter deletes, and the deletion. */
export function CleanupPanel({ onDeleted }: { onDeleted: () => void }) {
  const confirm = useConfirm();
  const [open, setOpen] = useState(false);
  const [stats, setStats] = useState<CleanupStats | null>(null);
  const [statuses, setStatuses] = useState<BookingStatus[]>(['expired']);
  const [olderThanDays, setOlderThanDays] = useState(30);
  const [excludeWithLocker, setExcludeWithLocker] = useState(true);
  const [preview, setPreview] = useState<CleanupPreview | null>(null);
  const [previewing, setPreviewing] = useState(false);
  const [deleting, setDeleting] = useState(false);
  const [message, setMessage] = useState<NoticeMessage | null>(null);
  const [refreshKey, setRefreshKey] = useState(0);

  useEffect(() => {
    if (!open) return;
    adminCall(cleanupRoutes.stats, {})
      .then((answer) => {
        if (answer.success && answer.data) setStats(answer.data);
        else setMessage({ tone: 'error', text: answer.error ?? 'Errore nel caricamento statistiche' });
      })
      .catch((error: unknown) =>
        setMessage({ tone: 'error', text: failureText(error, 'Errore nel caricamento statistiche') }),
      );
  }, [open, refreshKey]);

  useEffect(() => {
    if (!open) return;
    if (statuses.length === 0) {
      setPreview({ totalBookings: 0, totalTransactions: 0, statusBreakdown: [] });
      return;
    }
    setPreviewing(true);
    const controller = new AbortController();
    const timer = window.setTimeout(() => {
      adminCall(cleanupRoutes.preview, {
        query: { statuses: statuses.join(','), olderThanDays, excludeWithLocker: String(excludeWithLocker) },
        signal: controller.signal,
      })
        .then((answer) => {
          if (answer.success && answer.data) setPreview(answer.data);
          else setMessage({ tone: 'error', text: answer.error ?? 'Errore nel caricamento anteprima' });
        })
        .catch((error: unknown) => {
          if (!controller.signal.aborted) {
            setMessage({ tone: 'error', text: failureText(error, 'Errore nel caricamento anteprima') });
          }
        })
        .finally(() => {
          if (!controller.signal.aborted) setPreviewing(false);
        });
    }, PREVIEW_DEBOUNCE_MS);
    return () => {
      window.clearTimeout(timer);
      controller.abort();
    };
  }, [open, statuses, olderThanDays, excludeWithLocker, refreshKey]);

  function toggleStatus(status: BookingStatus) {
    setStatuses((current) =>
      current.includes(status)
        ? current.filter((s) => s !== status)
        : BOOKING_STATUSES.filter((s) => s === status || current.includes(s)),
    );
  }

  function changeDays(text: string) {
    const value = Number.parseInt(text, 10);
    setOlderThanDays(Number.isNaN(value) ? 0 : Math.min(MAX_CLEANUP_AGE_DAYS, Math.max(0, value)));
  }

  async function execute() {
    if (!preview || preview.totalBookings === 0) return;
    const confirmed = await confirm.ask({
      title: 'Eliminare le prenotazioni?',
      text: `Eliminare definitivamente ${preview.totalBookings} prenotazioni (${preview.totalTransactions} transazioni)? L'operazione non si può annullare.`,
      confirmLabel: 'Elimina',
    });
    if (!confirmed) return;
    setDeleting(true);
    setMessage(null);
    try {
      const answer = await adminCall(cleanupRoutes.execute, {
        body: { statuses, olderThanDays, excludeWithLocker },
      });
      if (!answer.success || !answer.data) {
        setMessage({ tone: 'error', text: answer.error ?? 'Errore durante la cancellazione' });
        return;
      }
      const kept = keptText(answer.data.kept);
      setMessage({
        tone: 'success',
        text:
          `Eliminate ${answer.data.deletedRows} prenotazioni (${answer.data.totalTransactions} transazioni)` +
          (kept ? `. ${kept}` : ''),
      });
      setRefreshKey((key) => key + 1);
      onDeleted();
    } catch (error) {
      setMessage({ tone: 'error', text: failureText(error, 'Errore durante la cancellazione') });
    } finally {
      setDeleting(false);
    }
  }

  return (
    <section className="adm-card adm-collapsible">
      {confirm.dialog}
      <button
        type="button"
        className="adm-collapsible-head"
        aria-expanded={open}
        onClick={() => setOpen(!open)}
      >
        <span>Gestione Database</span>
        <span aria-hidden="true">{open ? '▾' : '▸'}</span>
      </button>
      {open ? (
        <div className="adm-collapsible-body">
          <Notice message={message} onClose={() => setMessage(null)} />
          <div className="adm-stats">
            <div className="adm-stat">
              <span className="adm-stat-label">Prenotazioni totali</span>
              <strong>{stats ? stats.totalBookings : '–'}</strong>
            </div>
            <div className="adm-stat">
              <span className="adm-stat-label">Più vecchie di 30 giorni</span>
              <strong>{stats ? stats.oldBookings.count : '–'}</strong>
            </div>
            <div className="adm-stat adm-stat-wide">
              <span className="adm-stat-label">Per stato</span>
              <span className="adm-chips">
                {(stats?.byStatus ?? []).map((entry) => (
                  <span key={entry.STATUS} className="adm-chip">
                    {STATUS_LABELS[entry.STATUS]} <strong>{entry.count}</strong>
                  </span>
                ))}
              </span>
            </div>
          </div>
          <div className="adm-cleanup-form">
            <fieldset className="adm-fieldset">
              <legend>Stati da eliminare</legend>
              <div className="adm-checks">
                {BOOKING_STATUSES.map((status) => (
                  <label key={status} className="adm-check">
                    <input
                      type="checkbox"
                      checked={statuses.includes(status)}
                      onChange={() => toggleStatus(status)}
                    />
                    {status}
                  </label>
                ))}
              </div>
            </fieldset>
            <div className="adm-form-row">
              <label className="adm-check">
                <input
                  type="checkbox"
                  checked={olderThanDays > 0}
                  onChange={(event) => setOlderThanDays(event.target.checked ? 30 : 0)}
                />
                Solo più vecchie di
              </label>
              <input
                className="adm-input adm-input-narrow"
                type="number"
                min={0}
                max={MAX_CLEANUP_AGE_DAYS}
                value={olderThanDays}
                onChange={(event) => changeDays(event.target.value)}
                aria-label="Giorni"
              />
              <span>giorni</span>
              <label className="adm-check">
                <input
                  type="checkbox"
                  checked={excludeWithLocker}
                  onChange={(event) => setExcludeWithLocker(event.target.checked)}
                />
                Escludi prenotazioni con locker assegnato
              </label>
            </div>
          </div>
          <div className="adm-preview">
            <div>
              <strong>Anteprima:</strong>{' '}
              {previewing || !preview
                ? 'calcolo…'
                : `${preview.totalBookings} prenotazioni, ${preview.totalTransactions} transazioni`}
              {preview && !previewing && preview.statusBreakdown.length > 0 ? (
                <span className="adm-muted">
                  {' '}
                  ({preview.statusBreakdown.map((entry) => `${entry.status}: ${entry.count}`).join(', ')})
                </span>
              ) : null}
              {preview && !previewing && keptText(preview.kept) ? (
                <p className="adm-muted adm-small">{keptText(preview.kept)}</p>
              ) : null}
            </div>
            <button
              type="button"
              className="adm-btn adm-btn-danger"
              disabled={!preview || preview.totalBookings <= 0 || previewing || deleting}
              onClick={() => void execute()}
            >
              {deleting ? 'Eliminazione…' : 'Elimina prenotazioni'}
            </button>
          </div>
        </div>
      ) : null}
    </section>
  );
}
