import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

export type AlertTone = 'error' | 'warning' | 'success' | 'notice';

/** A message region: errors interrupt (role alert), the rest are announced politely. */
export function Alert({
  tone,
  children,
  onDismiss,
  id,
}: {
  tone: AlertTone;
  children: ReactNode;
  onDismiss?: () => void;
  id?: string;
}) {
  const { t } = useTranslation();
  return (
    <div id={id} className={`alert alert-${tone}`} role={tone === 'error' ? 'alert' : 'status'}>
      <p>{children}</p>
      {onDismiss && (
        <button type="button" className="alert-dismiss" aria-label={t('ui.dismiss')} onClick={onDismiss}>
          ×
        </button>
      )}
    </div>
  );
}
