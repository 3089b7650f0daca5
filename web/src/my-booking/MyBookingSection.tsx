import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { MyBookingResponse } from '@deposito/protocol/api/my-booking';

/** What the parts of the booking page get: the booking, its private token, and how to show a change. */
export interface MyBookingProps {
  token: string;
  booking: MyBookingResponse;
  onChanged: (booking: MyBookingResponse) => void;
}

/** One section of the booking page, named by its heading (`my-booking-{name}` labels it). */
export function MyBookingSection({
  name,
  title,
  children,
}: {
  name: string;
  title: string;
  children: ReactNode;
}) {
  const id = `my-booking-${name}`;
  return (
    <section className="card stack" aria-labelledby={id}>
      <h2 id={id} className="my-booking-section-title">
        {title}
      </h2>
      {children}
    </section>
  );
}

/** A button of the section's request: it waits while the request is on its way. */
export function RequestButton({
  tone,
  waiting,
  onClick,
  children,
}: {
  tone: 'primary' | 'secondary';
  waiting: boolean;
  onClick: () => void;
  children: ReactNode;
}) {
  return (
    <button type="button" className={`button button-${tone}`} disabled={waiting} onClick={onClick}>
      {children}
    </button>
  );
}

/** A request of the section that failed: its message, read out at once. */
export function RequestFailure({ step }: { step: { kind: string; key?: string } }) {
  const { t } = useTranslation();
  if (step.kind !== 'failed' || !step.key) return null;
  return (
    <p className="alert alert-error" role="alert">
      {t(step.key)}
    </p>
  );
}
