import {
  TEST_BOOKING_STATUSES,
  adminRoutes,
  locationRoutes,
  type Location,
  type LockerSize,
} from '@deposito/protocol';
import { DateTime } from 'luxon';
import { useEffect, useMemo, useState, type FormEvent } from 'react';
import { adminCall } from '../admin-api';
import { ApiError, CLIENT_ERROR_CODES } from '../../api/http';
import { useClock } from '../../components/clock';
import { Card, Field, Notice, PageHeader, type NoticeMessage } from '../components/ui';

type TestStatus = (typeof TEST_BOOKING_STATUSES)[number];

const LOCAL_FORMAT = "yyyy-MM-dd'T'HH:mm";

function isNetworkError(error: unknown): boolean {
  return (
    error instanceof ApiError &&
    (error.code === CLIENT_ERROR_CODES.network || error.code === CLIENT_ERROR_CODES.timeout)
  );
}

/** A datetime-local value read in the location's zone, as a UTC instant. */
function toUtc(local: string, zone: string): string | null {
  const time = DateTime.fromFormat(local, LOCAL_FORMAT, { zone });
  return time.isValid ? time.toUTC().toISO() : null;
}

function euroOrNull(text: string): number | null | 'invalid' {
  if (text.trim() === '') return null;
  const value = Number(text.replace(',', '.'));
  return Number.isFinite(value) && value >= 0 ? Math.round(value * 100) / 100 : 'invalid';
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

/** Strumenti Avanzati: a hand-made test booking, and the morning scheduler started by hand. */
export function AdvancedPage() {
  const [locations, setLocations] = useState<Location[]>([]);
  const [location, setLocation] = useState('');
  const [status, setStatus] = useState<TestStatus>('scheduled');
  const [type, setType] = useState<LockerSize>('standard');
  const [pin, setPin] = useState('');
  const [quantity, setQuantity] = useState(1);
  const [lockerIds, setLockerIds] = useState<number[]>([]);
  const clock = useClock();
  // Until the operator types a time, the defaults follow the chosen location's zone (London is not Rome).
  const [typedTimes, setTimes] = useState<ReturnType<typeof initialTimes> | null>(null);
  const [nome, setNome] = useState('');
  const [cognome, setCognome] = useState('');
  const [email, setEmail] = useState('');
  const [confermaEmail, setConfermaEmail] = useState('');
  const [note, setNote] = useState('lang:it');
  const [paidAt, setPaidAt] = useState('');
  const [priceOriginal, setPriceOriginal] = useState('');
  const [priceDiscounted, setPriceDiscounted] = useState('');
  const [transactionId, setTransactionId] = useState('');
  const [message, setMessage] = useState<NoticeMessage | null>(null);
  const [schedulerMessage, setSchedulerMessage] = useState<NoticeMessage | null>(null);
  const [busy, setBusy] = useState(false);
  const [schedulerBusy, setSchedulerBusy] = useState(false);

  useEffect(() => {
    adminCall(locationRoutes.locationsFull, { timeoutMs: 5_000 })
      .then((byKey) => {
        const list = Object.values(byKey);
        setLocations(list);
        setLocation((current) => current || list[0]?.key || '');
      })
      .catch(() => setMessage({ tone: 'error', text: 'Errore nel caricamento delle sedi' }));
  }, []);

  const chosen = locations.find((l) => l.key === location);
  const zone = chosen?.timezone ?? 'Europe/Rome';
  const [defaultTimes, setDefaultTimes] = useState(() => initialTimes(clock(), zone));
  if (!typedTimes && defaultTimes.zone !== zone) setDefaultTimes(initialTimes(clock(), zone));
  const times = typedTimes ?? defaultTimes;
  const lockersOfSize = useMemo(() => chosen?.lockerStructure[type] ?? [], [chosen, type]);
  const canPickLockers = status !== 'scheduled';

  function toggleLocker(id: number) {
    setLockerIds((current) =>
      current.includes(id) ? current.filter((x) => x !== id) : [...current, id].sort((a, b) => a - b),
    );
  }

  function addTag(tag: string) {
    setNote((current) => (current.split(';').includes(tag) ? current : current ? `${current};${tag}` : tag));
  }

  function validate(): string | null {
    if (!location) return 'Seleziona una location';
    if (pin !== '' && !/^\d{6}$/.test(pin)) return 'Il PIN deve avere 6 cifre';
    if (!nome.trim() || !cognome.trim()) return 'Nome e cognome sono obbligatori';
    if (!email.trim()) return "L'email è obbligatoria";
    if (confermaEmail !== '' && confermaEmail !== email) return 'Le email non coincidono';
    const start = toUtc(times.start, zone);
    const end = toUtc(times.end, zone);
    if (!start || !end) return 'Inizio e fine sono obbligatori';
    if (end <= start) return "La fine deve essere dopo l'inizio";
    if (canPickLockers && lockerIds.length > 0 && lockerIds.length !== quantity) {
      return `Scegli ${quantity} locker oppure nessuno (assegnazione automatica)`;
    }
    if (euroOrNull(priceOriginal) === 'invalid' || euroOrNull(priceDiscounted) === 'invalid')
      return 'Prezzo non valido';
    if (transactionId !== '' && !/^[A-Za-z0-9_-]{6,80}$/.test(transactionId))
      return 'ID transazione non valido';
    return null;
  }

  async function submit(event: FormEvent) {
    event.preventDefault();
    const problem = validate();
    if (problem) {
      setMessage({ tone: 'error', text: `Errore: ${problem}` });
      return;
    }
    setBusy(true);
    setMessage(null);
    try {
      const paid = paidAt ? toUtc(paidAt, zone) : null;
      const answer = await adminCall(adminRoutes.createTestBooking, {
        body: {
          location,
          status,
          type,
          pin: pin === '' ? undefined : pin,
          quantity,
          lockerIds: canPickLockers && lockerIds.length > 0 ? lockerIds : undefined,
          startTime: toUtc(times.start, zone)!,
          endTime: toUtc(times.end, zone)!,
          nome: nome.trim(),
          cognome: cognome.trim(),
          email: email.trim(),
          confermaEmail: confermaEmail === '' ? undefined : confermaEmail.trim(),
          note,
          paidAt: paid,
          priceOriginal: euroOrNull(priceOriginal) as number | null,
          priceDiscounted: euroOrNull(priceDiscounted) as number | null,
          transactionId: transactionId === '' ? undefined : transactionId,
        },
      });
      if (answer.success) {
        setMessage({
          tone: 'success',
          text: answer.message ?? `Prenotazione creata: ${answer.transactionId}`,
        });
        setLockerIds([]);
        setTransactionId('');
      } else {
        setMessage({ tone: 'error', text: `Errore: ${answer.error ?? 'sconosciuto'}` });
      }
    } catch (error) {
      setMessage({
        tone: 'error',
        text: isNetworkError(error)
          ? 'Errore di rete nella creazione del booking'
          : `Errore: ${error instanceof Error ? error.message : 'sconosciuto'}`,
      });
    } finally {
      setBusy(false);
    }
  }

  async function runScheduler() {
    setSchedulerBusy(true);
    setSchedulerMessage(null);
    try {
      const answer = await adminCall(adminRoutes.runMorningScheduler, {});
      setSchedulerMessage(
        answer.success
          ? { tone: 'success', text: answer.message ?? 'Morning Scheduler completato' }
          : { tone: 'error', text: `Errore: ${answer.error ?? 'sconosciuto'}` },
      );
    } catch (error) {
      setSchedulerMessage({
        tone: 'error',
        text: isNetworkError(error)
          ? 'Errore di rete nel scheduler'
          : `Errore: ${error instanceof Error ? error.message : 'sconosciuto'}`,
      });
    } finally {
      setSchedulerBusy(false);
    }
  }

  return (
    <>
      <PageHeader title="Strumenti Avanzati" subtitle="Prenotazioni di test e operazioni manuali" />
      <div className="adm-split">
        <Card title="Crea prenotazione di test" className="adm-split-main">
          <form onSubmit={submit} className="adm-form">
            <div className="adm-grid-3">
              <Field label="Location">
                <select
                  className="adm-input"
                  value={location}
                  onChange={(e) => {
                    setLocation(e.target.value);
                    setLockerIds([]);
                  }}
                >
                  {locations.map((l) => (
                    <option key={l.key} value={l.key}>
                      {l.nome} ({l.key})
                    </option>
                  ))}
                </select>
              </Field>
              <Field label="Stato">
                <select
                  className="adm-input"
                  value={status}
                  onChange={(e) => {
                    setStatus(e.target.value as TestStatus);
                    if (e.target.value === 'scheduled') setLockerIds([]);
                  }}
                >
                  {TEST_BOOKING_STATUSES.map((s) => (
                    <option key={s} value={s}>
                      {s}
                    </option>
                  ))}
                </select>
              </Field>
              <Field label="Tipo">
                <select
                  className="adm-input"
                  value={type}
                  onChange={(e) => {
                    setType(e.target.value as LockerSize);
                    setLockerIds([]);
                  }}
                >
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
                  value={quantity}
                  onChange={(e) =>
                    setQuantity(Math.min(10, Math.max(1, Number.parseInt(e.target.value, 10) || 1)))
                  }
                />
              </Field>
              <Field label="PIN" hint="6 cifre; vuoto = generato">
                <input
                  className="adm-input"
                  inputMode="numeric"
                  maxLength={6}
                  value={pin}
                  onChange={(e) => setPin(e.target.value.replace(/\D/g, ''))}
                  placeholder="es. 482915"
                />
              </Field>
              <Field label="ID transazione" hint="Vuoto = generato">
                <input
                  className="adm-input"
                  value={transactionId}
                  onChange={(e) => setTransactionId(e.target.value.trim())}
                />
              </Field>
              <Field label={`Inizio (${zone})`}>
                <input
                  className="adm-input"
                  type="datetime-local"
                  value={times.start}
                  onChange={(e) => setTimes({ ...times, start: e.target.value })}
                />
              </Field>
              <Field label={`Fine (${zone})`}>
                <input
                  className="adm-input"
                  type="datetime-local"
                  value={times.end}
                  onChange={(e) => setTimes({ ...times, end: e.target.value })}
                />
              </Field>
              <Field label="Pagata il" hint="Facoltativo">
                <input
                  className="adm-input"
                  type="datetime-local"
                  value={paidAt}
                  onChange={(e) => setPaidAt(e.target.value)}
                />
              </Field>
              <Field label="Nome">
                <input className="adm-input" value={nome} onChange={(e) => setNome(e.target.value)} />
              </Field>
              <Field label="Cognome">
                <input className="adm-input" value={cognome} onChange={(e) => setCognome(e.target.value)} />
              </Field>
              <span />
              <Field label="Email">
                <input
                  className="adm-input"
                  type="email"
                  value={email}
                  onChange={(e) => setEmail(e.target.value)}
                />
              </Field>
              <Field label="Conferma email">
                <input
                  className="adm-input"
                  type="email"
                  value={confermaEmail}
                  onChange={(e) => setConfermaEmail(e.target.value)}
                />
              </Field>
              <span />
              <Field label="Prezzo originale (€)">
                <input
                  className="adm-input"
                  inputMode="decimal"
                  value={priceOriginal}
                  onChange={(e) => setPriceOriginal(e.target.value)}
                  placeholder="da listino"
                />
              </Field>
              <Field label="Prezzo scontato (€)">
                <input
                  className="adm-input"
                  inputMode="decimal"
                  value={priceDiscounted}
                  onChange={(e) => setPriceDiscounted(e.target.value)}
                  placeholder="= originale"
                />
              </Field>
            </div>
            <Field label="Note" hint="Tag separati da ; (lingua, fasttrack, night)">
              <div className="adm-inline">
                <input className="adm-input" value={note} onChange={(e) => setNote(e.target.value)} />
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
            <fieldset className="adm-fieldset" disabled={!canPickLockers}>
              <legend>
                Locker specifici{' '}
                {canPickLockers
                  ? `(${lockerIds.length}/${quantity})`
                  : '— assegnati il giorno stesso per le prenotazioni scheduled'}
              </legend>
              <div className="adm-checks">
                {lockersOfSize.map((id) => (
                  <label key={id} className="adm-check adm-check-box">
                    <input
                      type="checkbox"
                      checked={lockerIds.includes(id)}
                      onChange={() => toggleLocker(id)}
                    />
                    {id}
                  </label>
                ))}
                {lockersOfSize.length === 0 ? <span className="adm-muted">Nessun locker {type}</span> : null}
              </div>
            </fieldset>
            <Notice message={message} onClose={() => setMessage(null)} />
            <div className="adm-form-actions">
              <button type="submit" className="adm-btn adm-btn-primary" disabled={busy}>
                {busy ? 'Creazione…' : 'Crea prenotazione'}
              </button>
            </div>
          </form>
        </Card>
        <Card title="Morning Scheduler" className="adm-split-side">
          <p className="adm-muted">
            Assegna locker e PIN alle prenotazioni programmate per oggi e invia le email, come ogni mattina.
          </p>
          <button
            type="button"
            className="adm-btn adm-btn-primary adm-btn-block"
            disabled={schedulerBusy}
            onClick={() => void runScheduler()}
          >
            {schedulerBusy ? 'In esecuzione…' : 'Avvia Morning Scheduler'}
          </button>
          <Notice message={schedulerMessage} onClose={() => setSchedulerMessage(null)} />
        </Card>
      </div>
    </>
  );
}
