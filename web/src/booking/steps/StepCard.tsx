import type { ButtonHTMLAttributes, ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { StepHeading } from '../../components/StepHeading';
import { Alert } from '../../components/Alert';

// The pieces every wizard step is made of, so that the steps look and read alike.

/** A step's card: its heading (which takes focus as the step opens), an optional prompt, the step. */
export function StepCard({
  title,
  prompt,
  busy,
  children,
}: {
  title: string;
  prompt?: string;
  /** Only for a step whose own choice waits on the server. */
  busy?: boolean;
  children: ReactNode;
}) {
  return (
    <section className="card" aria-busy={busy}>
      <div className="step-header">
        <StepHeading>{title}</StepHeading>
        {prompt && <p className="muted">{prompt}</p>}
      </div>
      {children}
    </section>
  );
}

/** The step's last error, which the visitor may dismiss. */
export function StepError({ error, onDismiss }: { error: string | null; onDismiss: () => void }) {
  return error ? (
    <Alert tone="error" onDismiss={onDismiss}>
      {error}
    </Alert>
  ) : null;
}

/** Continue, which says what it waits for while the step's check runs. */
export function ContinueButton({
  busy,
  busyLabel,
  disabled,
  ...button
}: Omit<ButtonHTMLAttributes<HTMLButtonElement>, 'className' | 'children'> & {
  busy: boolean;
  busyLabel: string;
}) {
  const { t } = useTranslation();
  return (
    <button
      type="button"
      className="button button-primary"
      disabled={disabled || busy}
      aria-busy={busy}
      {...button}
    >
      {busy ? busyLabel : t('ui.continue')}
    </button>
  );
}

/** Under each step after the calendar: Back and, in the night wizard, Cancel (Back then stands out more). */
export function StepBackActions({ onBack, onCancel }: { onBack: () => void; onCancel?: () => void }) {
  const { t } = useTranslation();
  return (
    <>
      <button
        type="button"
        className={onCancel ? 'button button-secondary' : 'button button-ghost'}
        onClick={onBack}
      >
        {t('ui.back')}
      </button>
      {onCancel && (
        <button type="button" className="button button-ghost" onClick={onCancel}>
          {t('ui.cancel')}
        </button>
      )}
    </>
  );
}

/** One of a step's choices (a size, a quantity): choosing it moves the wizard on. */
export function ChoiceButton({
  disabled,
  onChoose,
  children,
}: {
  disabled: boolean;
  onChoose: () => void;
  children: ReactNode;
}) {
  return (
    <button type="button" className="choice" disabled={disabled} onClick={onChoose}>
      {children}
    </button>
  );
}
