import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorMessageKey } from '../api/error-messages';
import { resendMyBookingConfirmation } from './my-booking-api';

type Step =
  { kind: 'idle' } | { kind: 'sending' } | { kind: 'sent'; to: string } | { kind: 'failed'; key: string };

/**
 * Sends the booking's confirmation again, always to the booking's own address (the server decides
 * where, and how often: a few times an hour). The answer names the address partly hidden.
 */
export function ResendConfirmation({ token }: { token: string }) {
  const { t } = useTranslation();
  const [step, setStep] = useState<Step>({ kind: 'idle' });

  async function resend() {
    setStep({ kind: 'sending' });
    try {
      const { sentTo } = await resendMyBookingConfirmation(token);
      setStep({ kind: 'sent', to: sentTo });
    } catch (error) {
      setStep({ kind: 'failed', key: errorMessageKey(error, 'errors.unexpected') });
    }
  }

  return (
    <section className="card stack" aria-labelledby="my-booking-resend">
      <h2 id="my-booking-resend" className="my-booking-section-title">
        {t('myBooking.resend.title')}
      </h2>
      <p className="muted">{t('myBooking.resend.text')}</p>
      {step.kind === 'sent' && (
        <p className="alert alert-notice" role="status">
          {t('myBooking.resend.sent', { to: step.to })}
        </p>
      )}
      {step.kind === 'failed' && (
        <p className="alert alert-error" role="alert">
          {t(step.key)}
        </p>
      )}
      <div className="my-booking-actions">
        <button
          type="button"
          className="button button-secondary"
          disabled={step.kind === 'sending'}
          onClick={() => void resend()}
        >
          {t('myBooking.resend.button')}
        </button>
      </div>
    </section>
  );
}
