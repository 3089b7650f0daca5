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

export function MaintenanceScreen() {
  const { t } = useTranslation();
  useDocumentTitle(t('status.maintenance.title'));
  return (
    <main className="screen-center">
      <div className="card">
        <h1>{t('status.maintenance.title')}</h1>
        <p className="muted">{t('status.maintenance.text')}</p>
      </div>
    </main>
  );
}

export function ErrorScreen({ onReload }: { onReload?: () => void }) {
  const { t } = useTranslation();
  useDocumentTitle(t('status.error.title'));
  return (
    <main className="screen-center">
      <div className="card" role="alert">
        <h1>{t('status.error.title')}</h1>
        <p className="muted">{t('status.error.text')}</p>
        <button
          type="button"
          className="button button-primary"
          onClick={onReload ?? (() => window.location.reload())}
        >
          {t('status.error.reload')}
        </button>
      </div>
    </main>
  );
}
