import type { Language } from '@deposito/protocol/booking/note';
import type { LockerSize } from '@deposito/protocol/pricing/locker-size';

// Customer e-mail wording in the four interface languages. Written here rather than in the web's
// locale files: e-mails are composed on the server and must not break when the web changes a key.

export interface BookingEmailTexts {
  subject: { confirmation: string; scheduled: string; todayPin: string };
  greeting: (name: string) => string;
  intro: { confirmation: string; scheduled: string; todayPin: string };
  scheduledNote: string;
  labels: {
    booking: string;
    location: string;
    address: string;
    start: string;
    end: string;
    lockers: string;
    size: string;
    quantity: string;
    pin: string;
    total: string;
  };
  sizes: Record<LockerSize, string>;
  pinHint: string;
  closing: string;
  signature: string;
}

export const BOOKING_EMAIL_TEXTS: Record<Language, BookingEmailTexts> = {
  it: {
    subject: {
      confirmation: 'Prenotazione confermata',
      scheduled: 'Prenotazione registrata',
      todayPin: 'Il tuo PIN per oggi',
    },
    greeting: (name) => `Ciao ${name},`,
    intro: {
      confirmation: 'il pagamento è andato a buon fine e la tua prenotazione è confermata.',
      scheduled: 'il pagamento è andato a buon fine e la tua prenotazione è registrata.',
      todayPin: 'la tua prenotazione inizia oggi: ecco il PIN e il locker che ti abbiamo assegnato.',
    },
    scheduledNote:
      'Il PIN e il locker ti verranno assegnati il giorno della prenotazione: quella mattina riceverai un’altra email con il PIN.',
    labels: {
      booking: 'Codice prenotazione',
      location: 'Luogo',
      address: 'Indirizzo',
      start: 'Inizio',
      end: 'Fine',
      lockers: 'Locker',
      size: 'Dimensione',
      quantity: 'Quantità',
      pin: 'PIN',
      total: 'Totale pagato',
    },
    sizes: { standard: 'Standard', large: 'Grande' },
    pinHint: 'Digita il PIN sul tastierino del locker per aprirlo. Non condividerlo con nessuno.',
    closing: 'Grazie per aver scelto Deposito.',
    signature: 'Il team Deposito',
  },
  en: {
    subject: {
      confirmation: 'Booking confirmed',
      scheduled: 'Booking registered',
      todayPin: 'Your PIN for today',
    },
    greeting: (name) => `Hello ${name},`,
    intro: {
      confirmation: 'your payment went through and your booking is confirmed.',
      scheduled: 'your payment went through and your booking is registered.',
      todayPin: 'your booking starts today: here are the PIN and the locker we have assigned to you.',
    },
    scheduledNote:
      'Your PIN and locker will be assigned on the day of your booking: that morning you will receive another e-mail with your PIN.',
    labels: {
      booking: 'Booking code',
      location: 'Location',
      address: 'Address',
      start: 'Start',
      end: 'End',
      lockers: 'Locker',
      size: 'Size',
      quantity: 'Quantity',
      pin: 'PIN',
      total: 'Total paid',
    },
    sizes: { standard: 'Standard', large: 'Large' },
    pinHint: 'Enter the PIN on the locker keypad to open it. Do not share it with anyone.',
    closing: 'Thank you for choosing Deposito.',
    signature: 'The Deposito team',
  },
  es: {
    subject: {
      confirmation: 'Reserva confirmada',
      scheduled: 'Reserva registrada',
      todayPin: 'Tu PIN para hoy',
    },
    greeting: (name) => `Hola ${name}:`,
    intro: {
      confirmation: 'el pago se ha realizado correctamente y tu reserva está confirmada.',
      scheduled: 'el pago se ha realizado correctamente y tu reserva está registrada.',
      todayPin: 'tu reserva empieza hoy: aquí tienes el PIN y la taquilla que te hemos asignado.',
    },
    scheduledNote:
      'El PIN y la taquilla se asignarán el día de tu reserva: esa mañana recibirás otro correo con tu PIN.',
    labels: {
      booking: 'Código de reserva',
      location: 'Lugar',
      address: 'Dirección',
      start: 'Inicio',
      end: 'Fin',
      lockers: 'Taquilla',
      size: 'Tamaño',
      quantity: 'Cantidad',
      pin: 'PIN',
      total: 'Total pagado',
    },
    sizes: { standard: 'Estándar', large: 'Grande' },
    pinHint: 'Introduce el PIN en el teclado de la taquilla para abrirla. No lo compartas con nadie.',
    closing: 'Gracias por elegir Deposito.',
    signature: 'El equipo de Deposito',
  },
  jp: {
    subject: {
      confirmation: 'ご予約が確定しました',
      scheduled: 'ご予約を承りました',
      todayPin: '本日のPINコード',
    },
    greeting: (name) => `${name} 様`,
    intro: {
      confirmation: 'お支払いが完了し、ご予約が確定しました。',
      scheduled: 'お支払いが完了し、ご予約を承りました。',
      todayPin: 'ご予約は本日開始です。割り当てられたPINコードとロッカーは以下のとおりです。',
    },
    scheduledNote:
      'PINコードとロッカーはご予約当日に割り当てられます。当日の朝、PINコードを記載したメールを改めてお送りします。',
    labels: {
      booking: '予約番号',
      location: '場所',
      address: '住所',
      start: '開始',
      end: '終了',
      lockers: 'ロッカー',
      size: 'サイズ',
      quantity: '数量',
      pin: 'PINコード',
      total: 'お支払い合計',
    },
    sizes: { standard: '標準', large: '大型' },
    pinHint: 'ロッカーのキーパッドにPINコードを入力すると開きます。PINコードは他の人に教えないでください。',
    closing: 'Depositoをご利用いただきありがとうございます。',
    signature: 'Depositoチーム',
  },
};

/** BCP 47 locale for dates and money ('jp' is the interface code, 'ja' the language). */
export const EMAIL_LOCALE: Record<Language, string> = { it: 'it-IT', en: 'en-GB', es: 'es-ES', jp: 'ja-JP' };
