import { ApiError } from '../../api/http';

/** The server's refusal of a save made from an older read (`edit/stale`, 409): its message, or null. */
export function staleEditMessage(error: unknown): string | null {
  return error instanceof ApiError && error.code === 'edit/stale' ? error.message : null;
}

/**
 * Another operator saved first: the server's message (who, when) and a button that reloads the
 * data, dropping this page's unsaved edits, so the next save starts from what is stored.
 */
export function StaleNotice({ message, onReload }: { message: string | null; onReload: () => void }) {
  if (!message) return null;
  return (
    <div className="adm-notice adm-notice-warning" role="alert">
      <span>{message}</span>
      <button type="button" className="adm-btn adm-btn-secondary" onClick={onReload}>
        Ricarica
      </button>
    </div>
  );
}
