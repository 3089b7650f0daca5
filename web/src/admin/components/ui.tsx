import type { ReactNode } from 'react';
import { useDocumentTitle } from '../../components/document-title';

export function PageHeader({
  title,
  subtitle,
  actions,
}: {
  title: string;
  subtitle?: string;
  actions?: ReactNode;
}) {
  useDocumentTitle(title, 'Admin Deposito');
  return (
    <div className="adm-page-header">
      <div>
        <h1>{title}</h1>
        {subtitle ? <p className="adm-muted">{subtitle}</p> : null}
      </div>
      {actions ? <div className="adm-toolbar">{actions}</div> : null}
    </div>
  );
}

export function Card({
  title,
  actions,
  children,
  className,
}: {
  title?: ReactNode;
  actions?: ReactNode;
  children: ReactNode;
  className?: string;
}) {
  return (
    <section className={`adm-card${className ? ` ${className}` : ''}`}>
      {title || actions ? (
        <header className="adm-card-header">
          {title ? <h2>{title}</h2> : <span />}
          {actions ? <div className="adm-toolbar">{actions}</div> : null}
        </header>
      ) : null}
      {children}
    </section>
  );
}

export type NoticeTone = 'success' | 'error' | 'info' | 'warning';

export interface NoticeMessage {
  tone: NoticeTone;
  text: string;
}

export function Notice({ message, onClose }: { message: NoticeMessage | null; onClose?: () => void }) {
  if (!message) return null;
  return (
    <div
      className={`adm-notice adm-notice-${message.tone}`}
      role={message.tone === 'error' ? 'alert' : 'status'}
    >
      <span>{message.text}</span>
      {onClose ? (
        <button type="button" className="adm-notice-close" aria-label="Chiudi" onClick={onClose}>
          ×
        </button>
      ) : null}
    </div>
  );
}

export function Loading({ text = 'Caricamento…' }: { text?: string }) {
  return (
    <div className="adm-loading" role="status">
      <span className="adm-spinner" aria-hidden="true" />
      {text}
    </div>
  );
}

export function Empty({ children }: { children: ReactNode }) {
  return <div className="adm-empty">{children}</div>;
}

export function Field({ label, children, hint }: { label: string; children: ReactNode; hint?: string }) {
  return (
    <div className="adm-field">
      <label className="adm-field">
        <span className="adm-field-label">{label}</span>
        {children}
      </label>
      {hint ? <span className="adm-field-hint">{hint}</span> : null}
    </div>
  );
}

/** A list read from the server: a spinner until it is read, `empty` when it has nothing, else `children`. */
export function Listed<Item>({
  items,
  empty,
  children,
}: {
  items: readonly Item[] | null;
  empty: string;
  children: (items: readonly Item[]) => ReactNode;
}) {
  if (items === null) return <Loading />;
  if (items.length === 0) return <Empty>{empty}</Empty>;
  return <>{children(items)}</>;
}

/**
 * A table in a region of its own that scrolls sideways on a phone (focusable and named, so keyboard
 * and screen-reader users reach what is off screen); `head` holds the header cells.
 */
export function TableRegion({
  label,
  head,
  className = 'adm-table',
  children,
}: {
  label: string;
  head: ReactNode;
  className?: string;
  children: ReactNode;
}) {
  return (
    <div className="adm-table-wrap" tabIndex={0} role="region" aria-label={label}>
      <table className={className}>
        <thead>
          <tr>{head}</tr>
        </thead>
        <tbody>{children}</tbody>
      </table>
    </div>
  );
}

/** A column header for screen readers only, over a column (of buttons, icons) that shows no title. */
export function HiddenHeader({ children }: { children: string }) {
  return (
    <th>
      <span className="visually-hidden">{children}</span>
    </th>
  );
}

/** A form's main submit button: disabled while its save runs (`pending`), saying `busy` meanwhile. */
export function SubmitButton({
  pending,
  busy,
  block = false,
  children,
}: {
  pending: boolean;
  busy: string;
  /** As wide as its card. */
  block?: boolean;
  children: string;
}) {
  return (
    <button
      type="submit"
      className={`adm-btn adm-btn-primary${block ? ' adm-btn-block' : ''}`}
      disabled={pending}
    >
      {pending ? busy : children}
    </button>
  );
}
