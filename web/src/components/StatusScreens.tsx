import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useDocumentTitle } from './document-title';

export function LoadingScreen() {
  const { t } = useTranslation();
  return (
    <main className="screen-center" aria-busy="true">
      <div role="status">
        <div className="spinner" aria-hidden="true" />
        <p>{t('status.loading')}</p>
      </div>
    </main>
  );
}

/**
 * A screen that only tells the visitor something: its title (the tab's too), a line of text, and
 * what they can do about it (`children`); `alert` reads it out at once.
 */
export function MessageScreen({
  title,
  text,
  alert = false,
  className = 'card',
  children,
}: {
  title: string;
  text: string;
  alert?: boolean;
  className?: string;
  children?: ReactNode;
}) {
  useDocumentTitle(title);
  return (
    <main className="screen-center">
      <div className={className} role={alert ? 'alert' : undefined}>
        <h1>{title}</h1>
        <p className="muted">{text}</p>
        {children}
      </div>
    </main>
  );
}

export function MaintenanceScreen() {
  const { t } = useTranslation();
  return <MessageScreen title={t('status.maintenance.title')} text={t('status.maintenance.text')} />;
}

export function ErrorScreen({ onReload }: { onReload?: () => void }) {
  const { t } = useTranslation();
  return (
    <MessageScreen title={t('status.error.title')} text={t('status.error.text')} alert>
      <button
        type="button"
        className="button button-primary"
        onClick={onReload ?? (() => window.location.reload())}
      >
        {t('status.error.reload')}
      </button>
    </MessageScreen>
  );
}
