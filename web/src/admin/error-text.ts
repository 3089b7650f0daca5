import { ERROR_CODES, TIME_OF_DAY_PATTERN, isErrorCode, type ErrorCode } from '@deposito/protocol';
import type { z } from 'zod';
import { CLIENT_ERROR_CODES } from '../api/http';

// What an operator reads for each error code, in Italian: the one mapping of the admin area. The
// server's messages are English for logs and API clients; the pages show these instead, whether
// the error came back from the server or the page found it first with the same protocol schema.
// For some areas the server writes its own Italian message naming specifics (who saved first, which
// booking holds the locker, which lockers are taken): that message is kept when the server sent one
// other than the code's English default (SERVER_SPECIFIC_AREAS).

type ClientCode = (typeof CLIENT_ERROR_CODES)[keyof typeof CLIENT_ERROR_CODES];

/**
 * Problems only a page's form finds (what the API takes is checked by protocol's schemas behind them):
 * a form schema raises them as custom issues with `params: { code }`, like the protocol's own.
 */
export const FORM_ERROR_CODES = {
  codeAndValueRequired: 'form/code_and_value_required',
  locationIdRequired: 'form/location_id_required',
  locationKeyFormat: 'form/location_key_format',
  copyTargetRequired: 'form/copy_target_required',
  periodRequired: 'form/period_required',
} as const;
type FormCode = (typeof FORM_ERROR_CODES)[keyof typeof FORM_ERROR_CODES];

export const ADMIN_ERROR_TEXT: Partial<Record<ErrorCode | ClientCode | FormCode, string>> = {
  'form/code_and_value_required': 'Codice e valore sono obbligatori',
  'form/location_id_required': 'L\'"ID interno" è obbligatorio per creare una nuova sede.',
  'form/location_key_format': 'ID interno e chiave: solo lettere minuscole, cifre, "-" e "_" (es. campo-2)',
  'form/copy_target_required': 'Scegli sia origine che destinazione',
  'form/period_required': 'Inizio e fine sono obbligatori',
  [CLIENT_ERROR_CODES.network]: 'Errore di rete o server non raggiungibile',
  [CLIENT_ERROR_CODES.timeout]: 'Il server non ha risposto in tempo',
  [CLIENT_ERROR_CODES.invalidResponse]: 'Formato dati non valido dal server',
  'validation/invalid_body': 'Dati non validi',
  'validation/invalid_query': 'Richiesta non valida',
  'validation/invalid_params': 'Richiesta non valida',
  'request/too_large': 'Richiesta troppo grande',
  'request/rate_limited': 'Troppe richieste: riprova tra poco',
  'route/not_found': 'Funzione non disponibile su questo server',
  'customer/phone_invalid': 'Numero di telefono non valido per il suo paese',
  BOOKING_NOT_FOUND: 'Prenotazione non trovata',
  BOOKING_EXPIRED: 'La prenotazione è scaduta',
  'my_booking/resend_not_available':
    'Questa prenotazione non ha una conferma da inviare di nuovo (non pagata, annullata o senza e-mail)',
  'booking/locker_unavailable': 'Nessun locker di quella dimensione è libero in quel periodo',
  'booking/price_mismatch': 'Il prezzo inviato è diverso da quello attuale',
  'booking/invalid_period': 'Periodo non prenotabile',
  'booking/start_not_offered': "Orario d'inizio non offerto",
  'booking/duration_not_offered': "Durata non offerta per quell'orario d'inizio",
  'booking/ends_after_closing': "Il periodo finirebbe dopo l'orario di chiusura",
  'booking/fast_track_closed': "Fast Track chiuso a quest'ora",
  'booking/quantity_not_allowed': 'Quantità non consentita',
  'booking/amount_too_high': "Il totale supera l'importo più alto che si può pagare",
  'booking/invalid_state': 'La prenotazione non può cambiare dal suo stato attuale',
  'booking/maintenance': 'Prenotazioni sospese per manutenzione',
  'booking/payment_started': 'Pagamento già avviato: la prenotazione non si può più modificare',
  'discount/invalid': 'Codice sconto non valido',
  'discount/expired': 'Codice sconto scaduto',
  'discount/min_days': 'Il codice sconto richiede una durata maggiore',
  'discount/already_used': 'Codice sconto già utilizzato',
  'discount/already_exists': 'Esiste già un codice sconto con questo nome',
  'discount/not_found': 'Codice sconto non trovato',
  'discount/period_inverted': 'La data di fine validità è prima di quella di inizio',
  'discount/in_use': 'Un pagamento in corso usa questo codice: riprova tra qualche minuto',
  'location/not_found': 'Sede non trovata',
  'location/already_exists': 'Esiste già una sede con questo ID o chiave',
  'location/same_source_and_target': 'Sorgente e destinazione devono essere diverse',
  'location/has_bookings': 'La sede ha prenotazioni registrate e non può essere eliminata',
  'location/key_reserved':
    "Questa parola è riservata a pagine del sito (admin, api, booking-notte…): scegli un'altra chiave o ID per la sede",
  'location/price_not_positive': 'Ogni prezzo deve essere maggiore di zero',
  'location/duplicate_duration':
    'La stessa durata compare due volte in una tabella prezzi: lascia una sola riga per durata',
  'locker/not_found': 'Locker non trovato in questa sede',
  'locker/booking_live': "Il locker ha una prenotazione attiva: conferma per annullarla con l'azione",
  'settings/block_window_empty':
    'Una finestra di blocco inizia e finisce alla stessa ora: correggila o eliminala',
  'settings/block_windows_overlap': 'Due finestre di blocco si sovrappongono: uniscile in una sola',
  'settings/fast_track_inverted':
    'Il Fast Track deve iniziare prima di finire nello stesso giorno (es. dalle 06:00 alle 21:00)',
  'bridge/offline': 'La sede è offline: il comando non è stato inviato',
  'bridge/queued': 'Comando in coda: partirà quando la sede si ricollega',
  'bridge/timeout':
    "La sede non ha confermato in tempo: il comando non partirà più da adesso (se era già arrivato al controller, lo stato del locker ne mostra l'esito)",
  'bridge/command_failed': 'Il controller del locker ha rifiutato il comando',
  'bridge/command_expired': 'Il comando è scaduto prima di essere eseguito: non partirà più',
  'payment/amount_too_low': "L'importo è sotto il minimo",
  'payment/provider_error': 'Errore del sistema di pagamento',
  'payment/invalid_parameters': 'Parametri di pagamento non leggibili',
  'takings/totem_unavailable': 'Il sistema dei totem (Promotec) non è raggiungibile',
  'auth/unauthorized': 'Sessione scaduta: accedi di nuovo',
  'auth/forbidden': 'Il tuo ruolo non permette questa operazione, o non su questa sede',
  'auth/invalid_credentials': 'Credenziali non valide',
  'auth/too_many_attempts': 'Troppi tentativi di accesso: riprova tra qualche minuto',
  'user/already_exists': 'Esiste già un amministratore con questa email',
  'user/not_found': 'Amministratore non trovato',
  'user/sites_required': 'Scegli almeno una sede per questo ruolo',
  'user/last_admin': "L'ultimo amministratore non può essere eliminato",
  'edit/stale': 'Qualcun altro ha modificato questi dati dopo che li hai aperti: ricarica la pagina',
  internal: 'Errore interno del server',
};

/** Areas whose specific messages the server writes in Italian for operators (bridges and validation do not). */
const SERVER_SPECIFIC_AREAS = ['booking/', 'discount/', 'location/has_bookings', 'locker/', 'user/', 'edit/'];

const VALIDATION_CODES = new Set([
  'validation/invalid_body',
  'validation/invalid_query',
  'validation/invalid_params',
]);

/** The fields a validation error names, "(campi: a, b)", so the operator sees where to look. */
function fieldsText(details: unknown): string {
  if (!Array.isArray(details)) return '';
  const paths = [
    ...new Set(
      details
        .map((d: unknown) => (d as { path?: unknown } | null)?.path)
        .filter((path): path is string => typeof path === 'string' && path !== ''),
    ),
  ].slice(0, 5);
  if (paths.length === 0) return '';
  return paths.length === 1 ? ` (campo: ${paths[0]})` : ` (campi: ${paths.join(', ')})`;
}

/**
 * The Italian text for an error answer: the mapped text of its code, unless the server wrote its own
 * specific (Italian) message for an area where it does; the server's message for a code this page
 * does not know yet.
 */
export function adminErrorMessage(code: string, serverMessage: string, details?: unknown): string {
  const text = ADMIN_ERROR_TEXT[code as ErrorCode];
  if (text === undefined) return serverMessage;
  const englishDefault = isErrorCode(code) ? ERROR_CODES[code].message : null;
  const specific = serverMessage !== '' && serverMessage !== englishDefault;
  if (specific && SERVER_SPECIFIC_AREAS.some((area) => code.startsWith(area))) return serverMessage;
  return VALIDATION_CODES.has(code) ? text + fieldsText(details) : text;
}

/** Italian names of a form's fields by the path of the value a schema checks ("pricing.standard.hours"). */
export type FieldLabels = Readonly<Record<string, string>>;

/** The label of the longest labelled prefix of `path` (shorter than `path` with `ancestorsOnly`), if any. */
function labelOf(
  path: readonly PropertyKey[],
  labels: FieldLabels,
  ancestorsOnly = false,
): string | undefined {
  for (let length = ancestorsOnly ? path.length - 1 : path.length; length > 0; length -= 1) {
    const label = labels[path.slice(0, length).join('.')];
    if (label !== undefined) return label;
  }
  return undefined;
}

/** What is wrong with a value zod refused, in a few Italian words (the label goes before it). */
function kindText(issue: z.core.$ZodIssue): string {
  if (issue.code === 'too_small') {
    const minimum = Number(issue.minimum);
    if (issue.origin === 'string') return minimum <= 1 ? 'obbligatorio' : `almeno ${minimum} caratteri`;
    if (issue.origin === 'array') return `almeno ${minimum} elementi`;
    return issue.inclusive ? `almeno ${minimum}` : `deve essere maggiore di ${minimum}`;
  }
  if (issue.code === 'too_big') {
    const maximum = Number(issue.maximum);
    if (issue.origin === 'string') return `al massimo ${maximum} caratteri`;
    if (issue.origin === 'array') return `al massimo ${maximum} elementi`;
    return issue.inclusive ? `al massimo ${maximum}` : `deve essere minore di ${maximum}`;
  }
  if (issue.code === 'invalid_format' && issue.pattern === String(TIME_OF_DAY_PATTERN)) {
    return 'usa il formato HH:mm';
  }
  return 'valore non valido';
}

/**
 * The Italian text of one problem a schema found in a page's form: the mapped text of its code
 * (custom issues carry one in `params.code`, from the protocol or a form's own check) after what
 * holds the field when the form names it; else the form's own text for that field (`texts`, by
 * path), or what is wrong in a few words after the field's label, or "Dati non validi" with the
 * field's path.
 */
export function issueText(
  issue: z.core.$ZodIssue,
  { labels = {}, texts = {} }: { labels?: FieldLabels; texts?: FieldLabels } = {},
): string {
  const code: unknown = issue.code === 'custom' ? issue.params?.code : undefined;
  const coded = typeof code === 'string' ? ADMIN_ERROR_TEXT[code as ErrorCode] : undefined;
  if (coded !== undefined) {
    // A coded text is a whole sentence: only what holds the field (a location, a price table) goes before it.
    const context = labelOf(issue.path, labels, true);
    return context === undefined ? coded : `${context}: ${coded}`;
  }
  const own = texts[issue.path.join('.')];
  if (own !== undefined) return own;
  const label = labelOf(issue.path, labels);
  if (label !== undefined) return `${label}: ${kindText(issue)}`;
  return ADMIN_ERROR_TEXT['validation/invalid_body'] + fieldsText([{ path: issue.path.join('.') }]);
}
