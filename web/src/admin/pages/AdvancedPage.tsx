import { TEST_BOOKING_STATUSES, adminRoutes, type Location, type TestBooking } from '@deposito/protocol';
import { DateTime } from 'luxon';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useState, type ChangeEvent } from 'react';
import type { UseFormReturn } from 'react-hook-form';
import { adminCall } from '../admin-api';
import { ApiError, CLIENT_ERROR_CODES } from '../../api/http';
import { useClock } from '../../components/clock';
import { FormInput, LocationOptions } from '../components/form-fields';
import { loadFailure } from '../components/page-notices';
import { Card, Field, Loading, Notice, PageHeader, SubmitButton, type NoticeMessage } from '../components/ui';
import { formSubmit, useAdminForm } from '../forms/admin-form';
import {
  LOCAL_FORMAT,
  TEST_BOOKING_NAMES,
  canPickLockers,
  testBookingFormSchema,
  type TestBookingForm,
} from '../forms/test-booking-form';
import { adminQueries } from '../query/queries';
import { Options } from '../../components/Options';

function isNetworkError(error: unknown): boolean {
  return (
    error instanceof ApiError &&
    (error.code === CLIENT_ERROR_CODES.network || error.code === CLIENT_ERROR_CODES.timeout)
  );
}

/** Now and three hours later, as the location's wall clock shows them (admin spec §9 defaults). */
const initialTimes = (now: Date, zone: string) => {
  const local = DateTime.fromJSDate(now, { zone }).startOf('minute');
  return {
    start: local.toFormat(LOCAL_FORMAT),
    end: local.plus({ hours: 3 }).toFormat(LOCAL_FORMAT),
    zone,
  };
};

type BookingForm = UseFormReturn<TestBookingForm, unknown, unknown>;

const failureText = (error: unknown, network: string) =>
  isNetworkError(error) ? network : `Errore: ${error instanceof Error ? error.message : 'sconosciuto'}`;

/** A field's typing rewritten as it is typed (digits only, a clamped number…), as the inputs did before. */
function rewriting(
  form: BookingForm,
  name: 'pin' | 'quantity' | 'transactionId',
  rewrite: (text: string) => string,
) {
  const field = form.register(name, name === 'quantity' ? { valueAsNumber: true } : undefined);
  return {
    ...field,
    onChange: (event: ChangeEvent<HTMLInputElement>) => {
      event.target.value = rewrite(event.target.value);
      return field.onChange(event);
    },
  };
}

/** Where and when: site, status, size, quantity, PIN, transaction id and the period in the site's zone. */
function BookingWhenFields({
  form,
  locations,
  zone,
  onLocation,
}: {
  form: BookingForm;
  locations: Location[];
  zone: string;
  onLocation: (key: string) => void;
}) {
  const { register, setValue } = form;
  const clearLockers = () => setValue('lockerIds', []);
  return (
    <>
      <Field label="Location">
        <select
          className="adm-input"
          {...register('location', { onChange: (e) => onLocation(e.target.value) })}
        >
          <LocationOptions locations={locations} withKey />
        </select>
      </Field>
      <Field label="Stato">
        <select
          className="adm-input"
          {...register('status', { onChange: (e) => e.target.value === 'scheduled' && clearLockers() })}
        >
          <Options items={TEST_BOOKING_STATUSES} />
        </select>
      </Field>
      <Field label="Tipo">
        <select className="adm-input" {...register('type', { onChange: clearLockers })}>
          <option value="standard">standard</option>
          <option value="large">large</option>
        </select>
      </Field>
      <Field label="Quantità">
        <input
          className="adm-input"
          type="number"
          min={1}
          max={10}
          {...rewriting(form, 'quantity', (text) =>
            String(Math.min(10, Math.max(1, Number.parseInt(text, 10) || 1))),
          )}
        />
      </Field>
      <Field label="PIN" hint="6 cifre; vuoto = generato">
        <input
          className="adm-input"
          inputMode="numeric"
          maxLength={6}
          placeholder="es. 482915"
          {...rewriting(form, 'pin', (text) => text.replace(/\D/g, ''))}
        />
      </Field>
      <Field label="ID transazione" hint="Vuoto = generato">
        <input className="adm-input" {...rewriting(form, 'transactionId', (text) => text.trim())} />
      </Field>
      <FormInput form={form} name="start" label={`Inizio (${zone})`} type="datetime-local" />
      <FormInput form={form} name="end" label={`Fine (${zone})`} type="datetime-local" />
      <FormInput form={form} name="paidAt" label="Pagata il" hint="Facoltativo" type="datetime-local" />
    </>
  );
}

/** Who booked and what they paid. */
function CustomerFields({ form }: { form: BookingForm }) {
  return (
    <>
      <FormInput form={form} name="nome" label="Nome" />
      <FormInput form={form} name="cognome" label="Cognome" />
      <span />
      <FormInput form={form} name="email" label="Email" type="email" />
      <FormInput form={form} name="confermaEmail" label="Conferma email" type="email" />
      <span />
      <FormInput
        form={form}
        name="priceOriginal"
        label="Prezzo originale (€)"
        inputMode="decimal"
        placeholder="da listino"
      />
      <FormInput
        form={form}
        name="priceDiscounted"
        label="Prezzo scontato (€)"
        inputMode="decimal"
        placeholder="= originale"
      />
    </>
  );
}

/** The note's tags, and the lockers to put the booking on (the day's assignment for scheduled ones). */
function NoteAndLockers({ form, lockersOfSize }: { form: BookingForm; lockersOfSize: readonly number[] }) {
  const [status, quantity, type, lockerIds] = form.watch(['status', 'quantity', 'type', 'lockerIds']);
  const pickable = canPickLockers(status);
  function addTag(tag: string) {
    const current = form.getValues('note');
    form.setValue('note', current.split(';').includes(tag) ? current : current ? `${current};${tag}` : tag);
  }
  function toggleLocker(id: number) {
    form.setValue(
      'lockerIds',
      lockerIds.includes(id) ? lockerIds.filter((x) => x !== id) : [...lockerIds, id].sort((a, b) => a - b),
    );
  }
  return (
    <>
      <Field label="Note" hint="Tag separati da ; (lingua, fasttrack, night)">
        <div className="adm-inline">
          <input className="adm-input" {...form.register('note')} />
          {['lang:en', 'fasttrack', 'night'].map((tag) => (
            <button
              type="button"
              key={tag}
              className="adm-btn adm-btn-ghost adm-btn-small"
              onClick={() => addTag(tag)}
            >
              +{tag}
            </button>
          ))}
        </div>
      </Field>
      <fieldset className="adm-fieldset" disabled={!pickable}>
        <legend>
          Locker specifici{' '}
          {pickable
            ? `(${lockerIds.length}/${quantity})`
            : '— assegnati il giorno stesso per le prenotazioni scheduled'}
        </legend>
        <div className="adm-checks">
          {lockersOfSize.map((id) => (
            <label key={id} className="adm-check adm-check-box">
              <input type="checkbox" checked={lockerIds.includes(id)} onChange={() => toggleLocker(id)} />
              {id}
            </label>
          ))}
          {lockersOfSize.length === 0 ? <span className="adm-muted">Nessun locker {type}</span> : null}
        </div>
      </fieldset>
    </>
  );
}

const EMPTY_BOOKING: Omit<TestBookingForm, 'start' | 'end'> = {
  location: '',
  status: 'scheduled',
  type: 'standard',
  pin: '',
  quantity: 1,
  lockerIds: [],
  paidAt: '',
  nome: '',
  cognome: '',
  email: '',
  confermaEmail: '',
  note: 'lang:it',
  priceOriginal: '',
  priceDiscounted: '',
  transactionId: '',
};

/** Crea prenotazione di test: until the operator types a time, the times follow the site's zone. */
function TestBookingCard({ locations }: { locations: Location[] }) {
  const clock = useClock();
  // The first site is chosen, its wall clock gives the default period.
  const first = locations[0];
  const [schema] = useState(() =>
    testBookingFormSchema((key) => locations.find((l) => l.key === key)?.timezone ?? 'Europe/Rome'),
  );
  const form = useAdminForm(
    schema,
    {
      ...EMPTY_BOOKING,
      location: first?.key ?? '',
      ...initialTimes(clock(), first?.timezone ?? 'Europe/Rome'),
    },
    TEST_BOOKING_NAMES,
  );
  const [message, setMessage] = useState<NoticeMessage | null>(null);
  const [location, type] = form.watch(['location', 'type']);
  const chosen = locations.find((l) => l.key === location);
  const zone = chosen?.timezone ?? 'Europe/Rome';
  const create = useMutation({
    mutationFn: (body: TestBooking) => adminCall(adminRoutes.createTestBooking, { body }),
  });

  /** Another site: its lockers differ, and untyped times move to its wall clock (London is not Rome). */
  function chooseLocation(key: string) {
    form.setValue('lockerIds', []);
    const next = locations.find((l) => l.key === key)?.timezone ?? 'Europe/Rome';
    const { start, end } = initialTimes(clock(), next);
    if (!form.getFieldState('start').isDirty) form.setValue('start', start);
    if (!form.getFieldState('end').isDirty) form.setValue('end', end);
  }

  const submit = formSubmit(
    form,
    (problem) => setMessage({ tone: 'error', text: `Errore: ${problem}` }),
    async (body) => {
      setMessage(null);
      try {
        const answer = await create.mutateAsync(body);
        if (!answer.success)
          return setMessage({ tone: 'error', text: `Errore: ${answer.error ?? 'sconosciuto'}` });
        setMessage({
          tone: 'success',
          text: answer.message ?? `Prenotazione creata: ${answer.transactionId}`,
        });
        form.setValue('lockerIds', []);
        form.setValue('transactionId', '');
      } catch (error) {
        setMessage({ tone: 'error', text: failureText(error, 'Errore di rete nella creazione del booking') });
      }
    },
  );

  return (
    <Card title="Crea prenotazione di test" className="adm-split-main">
      <form noValidate onSubmit={submit} className="adm-form">
        <div className="adm-grid-3">
          <BookingWhenFields form={form} locations={locations} zone={zone} onLocation={chooseLocation} />
          <CustomerFields form={form} />
        </div>
        <NoteAndLockers form={form} lockersOfSize={chosen?.lockerStructure[type] ?? []} />
        <Notice message={message} onClose={() => setMessage(null)} />
        <div className="adm-form-actions">
          <SubmitButton pending={create.isPending} busy="Creazione…">
            Crea prenotazione
          </SubmitButton>
        </div>
      </form>
    </Card>
  );
}

/** Morning Scheduler: the morning's assignment of lockers and PINs, started by hand. */
function SchedulerCard() {
  const run = useMutation({ mutationFn: () => adminCall(adminRoutes.runMorningScheduler, {}) });
  const answer = run.data;
  const message: NoticeMessage | null = run.isError
    ? { tone: 'error', text: failureText(run.error, 'Errore di rete nel scheduler') }
    : !answer
      ? null
      : answer.success
        ? { tone: 'success', text: answer.message ?? 'Morning Scheduler completato' }
        : { tone: 'error', text: `Errore: ${answer.error ?? 'sconosciuto'}` };
  return (
    <Card title="Morning Scheduler" className="adm-split-side">
      <p className="adm-muted">
        Assegna locker e PIN alle prenotazioni programmate per oggi e invia le email, come ogni mattina.
      </p>
      <button
        type="button"
        className="adm-btn adm-btn-primary adm-btn-block"
        disabled={run.isPending}
        onClick={() => run.mutate()}
      >
        {run.isPending ? 'In esecuzione…' : 'Avvia Morning Scheduler'}
      </button>
      <Notice message={run.isPending ? null : message} onClose={() => run.reset()} />
    </Card>
  );
}

/** Strumenti Avanzati: a hand-made test booking, and the morning scheduler started by hand. */
export function AdvancedPage() {
  const query = useQuery({ ...adminQueries.locationsFull(), select: (byKey) => Object.values(byKey) });
  return (
    <>
      <PageHeader title="Strumenti Avanzati" subtitle="Prenotazioni di test e operazioni manuali" />
      <Notice message={loadFailure(query, 'Errore nel caricamento delle sedi')} />
      <div className="adm-split">
        {query.isPending ? (
          <Card title="Crea prenotazione di test" className="adm-split-main">
            <Loading />
          </Card>
        ) : (
          <TestBookingCard locations={query.data ?? []} />
        )}
        <SchedulerCard />
      </div>
    </>
  );
}
