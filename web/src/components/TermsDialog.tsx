import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Dialog } from './Dialog';

/** The privacy and terms link of the summary; the text opens in place so the booking is not lost. */
export function TermsLink() {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  return (
    <>
      <p className="field-hint">
        {t('terms.prefix')}{' '}
        <button type="button" className="link-button" onClick={() => setOpen(true)}>
          {t('terms.link')}
        </button>
      </p>
      {open && (
        <Dialog
          title={t('terms.title')}
          onClose={() => setOpen(false)}
          actions={
            <button type="button" className="button button-primary" onClick={() => setOpen(false)}>
              {t('ui.close')}
            </button>
          }
        >
          <p>{t('terms.booking')}</p>
          <p>{t('terms.payment')}</p>
          <p>{t('terms.privacy')}</p>
        </Dialog>
      )}
    </>
  );
}
