import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorMessageKey } from '../api/error-messages';
import { resendMyBookingConfirmation } from './my-booking-api';
import { MyBookingSection, RequestButton, RequestFailure } from './MyBookingSection';

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
    <MyBookingSection name="resend" title={t('myBooking.resend.title')}>
      <p className="muted">{t('myBooking.resend.text')}</p>
      {step.kind === 'sent' && (
        <p className="alert alert-notice" role="status">
          {t('myBooking.resend.sent', { to: step.to })}
        </p>
      )}
      <RequestFailure step={step} />
      <div className="my-booking-actions">
        <RequestButton tone="secondary" waiting={step.kind === 'sending'} onClick={() => void resend()}>
          {t('myBooking.resend.button')}
        </RequestButton>
      </div>
    </MyBookingSection>
  );
}
