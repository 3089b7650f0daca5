import {
  BOOKING_STATUSES,
  MAX_CLEANUP_AGE_DAYS,
  cleanupRoutes,
  type BookingStatus,
  type CleanupKept,
  type CleanupPreview,
  type CleanupStats,
} from '@deposito/protocol';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { adminCall, refusalText } from '../admin-api';
import { useAdminMutation } from '../query/use-admin-mutation';
import { useConfirm } from '../components/use-confirm';
import { ApiError } from '../../api/http';
import { Notice, type NoticeMessage } from '../components/ui';
import { STATUS_LABELS } from '../format';

/** The preview reloads this long after the last filter change (admin spec §4). */
export const PREVIEW_DEBOUNCE_MS = 500;

function failureText(error: unknown, fallback: string): string {
  return refusalText(error, fallback, 'Errore di connessione al server');
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

/** `value` once it has stopped changing for `ms`. */
function useSettled<Value>(value: Value, ms: number): Value {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = window.setTimeout(() => setSettled(value), ms);
    return () => window.clearTimeout(timer);
  }, [value, ms]);
  return settled;
}

/** A cleanup answer's data, or its refusal as an error with the server's text. */
function dataOf<Data>(
  answer: { success: boolean; data?: Data | null; error?: string | null },
  fallback: string,
): Data {
  if (answer.success && answer.data) return answer.data;
  throw new ApiError('cleanup/refused', answer.error ?? fallback);
}

interface CleanupFilter {
  statuses: BookingStatus[];
  olderThanDays: number;
  excludeWithLocker: boolean;
}

const NOTHING: CleanupPreview = { totalBookings: 0, totalTransactions: 0, statusBreakdown: [] };

/**
 * The statistics and the preview of what the filter deletes, as queries under ['bookings'] (a
 * deletion or Aggiorna refreshes them with the list); the preview asks once the filter has settled.
 */
function useCleanupReads(open: boolean, filter: CleanupFilter) {
  const settled = useSettled(filter, PREVIEW_DEBOUNCE_MS);
  const stats = useQuery({
    queryKey: ['bookings', 'cleanup', 'stats'],
    enabled: open,
    queryFn: async ({ signal }) =>
      dataOf(await adminCall(cleanupRoutes.stats, { signal }), 'Errore nel caricamento statistiche'),
  });
  const preview = useQuery({
    queryKey: ['bookings', 'cleanup', 'preview', settled],
    enabled: open && settled.statuses.length > 0,
    queryFn: async ({ signal }) =>
      dataOf(
        await adminCall(cleanupRoutes.preview, {
          query: {
            statuses: settled.statuses.join(','),
            olderThanDays: settled.olderThanDays,
            excludeWithLocker: String(settled.excludeWithLocker),
          },
          signal,
        }),
        'Errore nel caricamento anteprima',
      ),
  });
  const failure: NoticeMessage | null = stats.isError
    ? { tone: 'error', text: failureText(stats.error, 'Errore nel caricamento statistiche') }
    : preview.isError
      ? { tone: 'error', text: failureText(preview.error, 'Errore nel caricamento anteprima') }
      : null;
  const nothingChosen = filter.statuses.length === 0;
  return {
    stats: stats.data ?? null,
    preview: nothingChosen ? NOTHING : (preview.data ?? null),
    previewing: !nothingChosen && (settled !== filter || preview.isFetching),
    failure,
  };
}

function CleanupStatsRow({ stats }: { stats: CleanupStats | null }) {
  return (
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
  );
}

function CleanupFilterFields({
  filter,
  onChange,
}: {
  filter: CleanupFilter;
  onChange: (filter: CleanupFilter) => void;
}) {
  const { statuses, olderThanDays, excludeWithLocker } = filter;
  function toggleStatus(status: BookingStatus) {
    onChange({
      ...filter,
      statuses: statuses.includes(status)
        ? statuses.filter((s) => s !== status)
        : BOOKING_STATUSES.filter((s) => s === status || statuses.includes(s)),
    });
  }
  function changeDays(text: string) {
    const value = Number.parseInt(text, 10);
    onChange({
      ...filter,
      olderThanDays: Number.isNaN(value) ? 0 : Math.min(MAX_CLEANUP_AGE_DAYS, Math.max(0, value)),
    });
  }
  return (
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
            onChange={(event) => onChange({ ...filter, olderThanDays: event.target.checked ? 30 : 0 })}
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
            onChange={(event) => onChange({ ...filter, excludeWithLocker: event.target.checked })}
          />
          Escludi prenotazioni con locker assegnato
        </label>
      </div>
    </div>
  );
}

function PreviewLine({ preview, previewing }: { preview: CleanupPreview | null; previewing: boolean }) {
  const kept = preview && !previewing ? keptText(preview.kept) : null;
  return (
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
      {kept ? <p className="adm-muted adm-small">{kept}</p> : null}
    </div>
  );
}

/** "Gestione Database": statistics, a live preview of what the filter deletes, and the deletion. */
export function CleanupPanel() {
  const confirm = useConfirm();
  const [open, setOpen] = useState(false);
  const [filter, setFilter] = useState<CleanupFilter>({
    statuses: ['expired'],
    olderThanDays: 30,
    excludeWithLocker: true,
  });
  const { stats, preview, previewing, failure } = useCleanupReads(open, filter);
  const [message, setMessage] = useState<NoticeMessage | null>(null);
  // The list, the statistics and the preview are all under ['bookings']: read again once it ran.
  const remove = useAdminMutation(
    (body: CleanupFilter) => adminCall(cleanupRoutes.execute, { body }),
    [['bookings']],
  );
  const deleting = remove.isPending;

  async function execute() {
    if (!preview || preview.totalBookings === 0) return;
    const confirmed = await confirm.ask({
      title: 'Eliminare le prenotazioni?',
      text: `Eliminare definitivamente ${preview.totalBookings} prenotazioni (${preview.totalTransactions} transazioni)? L'operazione non si può annullare.`,
      confirmLabel: 'Elimina',
    });
    if (!confirmed) return;
    setMessage(null);
    try {
      const answer = await remove.mutateAsync(filter);
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
    } catch (error) {
      setMessage({ tone: 'error', text: failureText(error, 'Errore durante la cancellazione') });
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
          <Notice message={message ?? failure} onClose={() => setMessage(null)} />
          <CleanupStatsRow stats={stats} />
          <CleanupFilterFields filter={filter} onChange={setFilter} />
          <div className="adm-preview">
            <PreviewLine preview={preview} previewing={previewing} />
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
