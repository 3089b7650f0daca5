import type { Language } from '@deposito/protocol/booking/note';
import type { LockerSize } from '@deposito/protocol/pricing/locker-size';

// Customer e-mail wording in the four interface languages. Written here rather than in the web's
// locale files: e-mails are composed on the server and must not break when the web changes a key.

export interface BookingEmailTexts {
  subject: { confirmation: string; scheduled: string; todayPin: string; refund: string; extension: string };
  greeting: (name: string) => string;
  intro: {
    confirmation: string;
    scheduled: string;
    todayPin: string;
    refund: string;
    extension: string;
  };
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
  /** Before the private link to the visitor's booking page. */
  myBooking: string;
  closing: string;
  signature: string;
}

export const BOOKING_EMAIL_TEXTS: Record<Language, BookingEmailTexts> = {
  it: {
    subject: {
      confirmation: 'Prenotazione confermata',
      scheduled: 'Prenotazione registrata',
      todayPin: 'Il tuo PIN per oggi',
      refund: 'Rimborso del pagamento',
      extension: 'Prenotazione prolungata',
    },
    greeting: (name) => `Ciao ${name},`,
    intro: {
      confirmation: 'il pagamento è andato a buon fine e la tua prenotazione è confermata.',
      scheduled: 'il pagamento è andato a buon fine e la tua prenotazione è registrata.',
      todayPin: 'la tua prenotazione inizia oggi: ecco il PIN e il locker che ti abbiamo assegnato.',
      refund:
        'abbiamo ricevuto il tuo pagamento, ma la prenotazione qui sotto non è valida (annullata o non confermabile): non usarla. Ti rimborseremo l’importo pagato sulla stessa carta; per qualsiasi domanda rispondi a questa email indicando il codice prenotazione.',
      extension:
        'il pagamento è andato a buon fine e la tua prenotazione è prolungata: il locker e il PIN restano gli stessi fino alla nuova fine.',
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
    myBooking: 'Vedi e gestisci la tua prenotazione (PIN, indirizzo, calendario):',
    closing: 'Grazie per aver scelto Deposito.',
    signature: 'Il team Deposito',
  },
  en: {
    subject: {
      confirmation: 'Booking confirmed',
      scheduled: 'Booking registered',
      todayPin: 'Your PIN for today',
      refund: 'Refund of your payment',
      extension: 'Booking extended',
    },
    greeting: (name) => `Hello ${name},`,
    intro: {
      confirmation: 'your payment went through and your booking is confirmed.',
      scheduled: 'your payment went through and your booking is registered.',
      todayPin: 'your booking starts today: here are the PIN and the locker we have assigned to you.',
      refund:
        'we received your payment, but the booking below is not valid (cancelled or could not be confirmed): do not use it. We will refund the amount paid to the same card; for any question reply to this e-mail with the booking code.',
      extension:
        'your payment went through and your booking is extended: the locker and the PIN stay the same until the new end.',
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
    myBooking: 'See and manage your booking (PIN, address, calendar):',
    closing: 'Thank you for choosing Deposito.',
    signature: 'The Deposito team',
  },
  es: {
    subject: {
      confirmation: 'Reserva confirmada',
      scheduled: 'Reserva registrada',
      todayPin: 'Tu PIN para hoy',
      refund: 'Reembolso de tu pago',
      extension: 'Reserva ampliada',
    },
    greeting: (name) => `Hola ${name}:`,
    intro: {
      confirmation: 'el pago se ha realizado correctamente y tu reserva está confirmada.',
      scheduled: 'el pago se ha realizado correctamente y tu reserva está registrada.',
      todayPin: 'tu reserva empieza hoy: aquí tienes el PIN y la taquilla que te hemos asignado.',
      refund:
        'hemos recibido tu pago, pero la reserva de abajo no es válida (cancelada o no confirmable): no la uses. Te reembolsaremos el importe pagado en la misma tarjeta; para cualquier duda responde a este correo indicando el código de reserva.',
      extension:
        'el pago se ha realizado correctamente y tu reserva se ha ampliado: la taquilla y el PIN siguen siendo los mismos hasta el nuevo final.',
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
    myBooking: 'Consulta y gestiona tu reserva (PIN, dirección, calendario):',
    closing: 'Gracias por elegir Deposito.',
    signature: 'El equipo de Deposito',
  },
  jp: {
    subject: {
      confirmation: 'ご予約が確定しました',
      scheduled: 'ご予約を承りました',
      todayPin: '本日のPINコード',
      refund: 'お支払いの返金について',
      extension: 'ご予約を延長しました',
    },
    greeting: (name) => `${name} 様`,
    intro: {
      confirmation: 'お支払いが完了し、ご予約が確定しました。',
      scheduled: 'お支払いが完了し、ご予約を承りました。',
      todayPin: 'ご予約は本日開始です。割り当てられたPINコードとロッカーは以下のとおりです。',
      refund:
        'お支払いを受け付けましたが、以下のご予約は無効です（キャンセルまたは確定できませんでした）。ご利用にならないでください。お支払い額は同じカードに返金いたします。ご不明な点は予約コードを添えてこのメールにご返信ください。',
      extension:
        'お支払いが完了し、ご予約を延長しました。新しい終了時刻まで、ロッカーとPINコードはそのままご利用いただけます。',
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
    myBooking: 'ご予約の確認・管理（PIN、住所、カレンダー）：',
    closing: 'Depositoをご利用いただきありがとうございます。',
    signature: 'Depositoチーム',
  },
};
