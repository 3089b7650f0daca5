import { createContext, useContext, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { VisitorCancellationPolicy } from '@deposito/protocol/booking/cancellation-policy-names';
import { Dialog } from './Dialog';

/** The cancellation policy the server's overrides named (null: an older server said nothing). */
export const CancellationPolicyContext = createContext<VisitorCancellationPolicy | null>(null);

/** The privacy and terms link of the summary; the text opens in place so the booking is not lost. */
export function TermsLink() {
  const { t } = useTranslation();
  const cancellationPolicy = useContext(CancellationPolicyContext);
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
          {cancellationPolicy && (
            <p>
              <strong>{t('myBooking.cancel.title')}.</strong>{' '}
              {t(`myBooking.cancel.policy.${cancellationPolicy}`)}
            </p>
          )}
          <p>{t('terms.privacy')}</p>
        </Dialog>
      )}
    </>
  );
}
