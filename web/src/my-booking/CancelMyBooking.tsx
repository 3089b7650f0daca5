import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorMessageKey } from '../api/error-messages';
import { cancelMyBooking } from './my-booking-api';
import { MyBookingSection, RequestButton, RequestFailure, type MyBookingProps } from './MyBookingSection';

type Step = { kind: 'idle' } | { kind: 'confirming' } | { kind: 'sending' } | { kind: 'failed'; key: string };

/**
 * The cancellation policy in force and, when it allows this booking now, the way to cancel it (a
 * second, explicit confirmation). The server decides; a refusal (409) is explained, never hidden.
 */
export function CancelMyBooking({ token, booking, onChanged }: MyBookingProps) {
  const { t } = useTranslation();
  const [step, setStep] = useState<Step>({ kind: 'idle' });
  const [done, setDone] = useState(false);
  const { policy, allowed, refusal } = booking.cancellation;

  async function confirm() {
    setStep({ kind: 'sending' });
    try {
      const changed = await cancelMyBooking(token);
      setDone(true);
      setStep({ kind: 'idle' });
      onChanged(changed);
    } catch (error) {
      // A refusal (409) says the booking can no longer be cancelled; the booking is read again.
      setStep({ kind: 'failed', key: errorMessageKey(error, 'errors.unexpected') });
    }
  }

  if (done) {
    return (
      <MyBookingSection name="cancel" title={t('myBooking.cancel.title')}>
        <p className="alert alert-notice" role="status">
          {t('myBooking.cancel.done')}
        </p>
      </MyBookingSection>
    );
  }
  // A booking that is not (or no longer) paid has nothing to cancel.
  if (refusal === 'not_paid') return null;
  const sending = step.kind === 'sending';
  return (
    <MyBookingSection name="cancel" title={t('myBooking.cancel.title')}>
      <p className="muted my-booking-policy">{t(`myBooking.cancel.policy.${policy}`)}</p>
      {!allowed && refusal && refusal !== 'not_allowed' && (
        <p className="field-hint">{t(`myBooking.cancel.refusal.${refusal}`)}</p>
      )}
      <RequestFailure step={step} />
      {allowed && (step.kind === 'idle' || step.kind === 'failed') && (
        <button type="button" className="button button-ghost" onClick={() => setStep({ kind: 'confirming' })}>
          {t('myBooking.cancel.button')}
        </button>
      )}
      {allowed && (step.kind === 'confirming' || step.kind === 'sending') && (
        <div className="stack" role="group" aria-label={t('myBooking.cancel.button')}>
          <p>{t('myBooking.cancel.confirm')}</p>
          <div className="my-booking-actions">
            <RequestButton tone="primary" waiting={sending} onClick={() => void confirm()}>
              {t('myBooking.cancel.confirmYes')}
            </RequestButton>
            <RequestButton tone="secondary" waiting={sending} onClick={() => setStep({ kind: 'idle' })}>
              {t('myBooking.cancel.keep')}
            </RequestButton>
          </div>
        </div>
      )}
    </MyBookingSection>
  );
}
