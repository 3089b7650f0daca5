import { useEffect, useId, useRef, type FormEvent, type ReactNode } from 'react';

/**
 * A modal question before an action that cannot be taken back, as the browser's own modal
 * `<dialog>` (top layer, the page behind inert, focus kept inside and given back when it closes).
 * Escape or "Annulla" closes it; the confirm button submits the form, so a field inside it
 * confirms with Enter too. While `busy` both buttons wait and Escape does nothing.
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
  const dialog = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const element = dialog.current;
    if (!element) return;
    // Shown as a modal while mounted (the callers mount it to ask); jsdom has no showModal.
    if (!element.open) {
      if (typeof element.showModal === 'function') element.showModal();
      else element.setAttribute('open', '');
    }
    return () => {
      if (element.open && typeof element.close === 'function') element.close();
    };
  }, []);
  function submit(event: FormEvent) {
    event.preventDefault();
    if (!busy) onConfirm();
  }
  return (
    <dialog
      ref={dialog}
      className="adm-dialog"
      aria-labelledby={titleId}
      onKeyDown={(event) => {
        // Escape: the caller decides (it unmounts the dialog); handled here, the browser's own
        // cancel does not follow.
        if (event.key !== 'Escape') return;
        event.preventDefault();
        if (!busy) onCancel();
      }}
      onCancel={(event) => {
        // Any other close request (a phone's back gesture): the same, never the browser on its own.
        event.preventDefault();
        if (!busy) onCancel();
      }}
    >
      <form className="adm-dialog-form" onSubmit={submit}>
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
    </dialog>
  );
}
