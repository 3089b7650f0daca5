import { useTranslation } from 'react-i18next';
import { LanguageFlags } from '../../components/LanguageFlags';
import { useDocumentTitle } from '../../components/document-title';

export type IdleChoice = 'calendar' | 'startOptions' | 'night';

/** The start screen: language flags and the big book button; what the button does is decided by the flow. */
export function IdleStep({
  locationName,
  address,
  openingHours,
  maintenance,
  showStartOptions,
  showNightTest,
  onBook,
  onStartNow,
  onStartLater,
  onNightTest,
}: {
  locationName: string;
  /** Where the lockers are and when they can be reached: what a visitor looks for first. */
  address?: string;
  openingHours?: { opening: string; closing: string };
  maintenance: boolean;
  showStartOptions: boolean;
  showNightTest: boolean;
  onBook: () => void;
  onStartNow: () => void;
  onStartLater: () => void;
  onNightTest: () => void;
}) {
  const { t } = useTranslation();
  useDocumentTitle(t('idle.title'));
  return (
    <section className="idle card" aria-labelledby="idle-title">
      <LanguageFlags />
      <div>
        <h1 id="idle-title">{t('idle.title')}</h1>
        <p className="muted">{locationName}</p>
        {address ? <p className="idle-address">{address}</p> : null}
        {openingHours ? (
          <p className="field-hint">
            {t('myBooking.openingHours')}: {t('myBooking.openingHoursValue', openingHours)}
          </p>
        ) : null}
      </div>
      {showStartOptions ? (
        <div className="start-options" role="group" aria-label={t('idle.startOptions')}>
          <button type="button" className="button button-primary button-large" onClick={onStartNow}>
            {t('idle.startNow')}
          </button>
          <button type="button" className="button button-secondary button-large" onClick={onStartLater}>
            {t('idle.startLater')}
          </button>
        </div>
      ) : (
        <button
          type="button"
          className="button button-primary button-large"
          // In maintenance the button still reacts, to explain why nothing can be booked.
          aria-disabled={maintenance}
          onClick={onBook}
        >
          {maintenance ? t('idle.maintenanceLabel') : t('idle.book')}
        </button>
      )}
      {showNightTest && (
        <button type="button" className="button button-ghost" onClick={onNightTest}>
          {t('idle.nightTest')}
        </button>
      )}
    </section>
  );
}
