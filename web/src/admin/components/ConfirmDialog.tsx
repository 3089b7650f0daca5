import { useId, type FormEvent, type ReactNode } from 'react';

/**
 * A modal question before an action that cannot be taken back. Escape or "Annulla" closes it; the
 * confirm button submits the form, so a field inside it confirms with Enter too. While `busy` both
 * buttons wait.
 */
export function ConfirmDialog({
  title,
  children,
  confirmLabel,
  cancelLabel = 'Annulla',
  tone = 'primary',
  busy = false,
  autoFocusConfirm = true,
  onConfirm,
  onCancel,
}: {
  title: string;
  children?: ReactNode;
  confirmLabel: string;
  cancelLabel?: string;
  tone?: 'primary' | 'danger';
  busy?: boolean;
  /** False when a field inside should get the focus instead (give it `autoFocus`). */
  autoFocusConfirm?: boolean;
  onConfirm: () => void;
  onCancel: () => void;
}) {
  const titleId = useId();
  function submit(event: FormEvent) {
    event.preventDefault();
    if (!busy) onConfirm();
  }
  return (
    <div className="adm-dialog-backdrop">
      <form
        className="adm-dialog"
        role="dialog"
        aria-modal="true"
        aria-labelledby={titleId}
        onSubmit={submit}
        onKeyDown={(event) => {
          if (event.key === 'Escape' && !busy) onCancel();
        }}
      >
        <h2 id={titleId} className="adm-dialog-title">
          {title}
        </h2>
        {children ? <div className="adm-dialog-body">{children}</div> : null}
        <div className="adm-dialog-actions">
          <button type="button" className="adm-btn adm-btn-secondary" onClick={onCancel} disabled={busy}>
            {cancelLabel}
          </button>
          <button
            type="submit"
            className={`adm-btn ${tone === 'danger' ? 'adm-btn-danger' : 'adm-btn-primary'}`}
            disabled={busy}
            autoFocus={autoFocusConfirm}
          >
            {busy ? '…' : confirmLabel}
          </button>
        </div>
      </form>
    </div>
  );
}
