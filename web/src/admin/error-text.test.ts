import { lockerRoutes, settingsRoutes } from '@deposito/protocol';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { apiError, fakeApi } from '../../test/fake-api';
import { adminCall } from './admin-api';
import { priceRowsSchema, zTimeOfDay } from '@deposito/protocol';
import { z } from 'zod';
import { adminErrorMessage, issueText } from './error-text';

afterEach(() => {
  vi.unstubAllGlobals();
});

/** The message of the error an admin call rejects with. */
async function failureOf(call: Promise<unknown>): Promise<string> {
  try {
    await call;
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error('the call succeeded');
}

describe('admin error messages', () => {
  it('turns a bridge error answered in English into Italian, by its code', async () => {
    fakeApi({
      'POST /api/lockers/open': apiError(
        504,
        'bridge/timeout',
        'The locker controller did not answer; whether the command ran is unknown',
      ),
    });
    const message = await failureOf(
      adminCall(lockerRoutes.open, { body: { location: 'roma', lockerId: 2 } }),
    );
    expect(message).toBe(
      "La sede non ha confermato in tempo: il comando non partirà più da adesso (se era già arrivato al controller, lo stato del locker ne mostra l'esito)",
    );
  });

  it('names the fields of a validation error instead of raw validation text', async () => {
    fakeApi({
      'POST /api/admin/settings/system': new Response(
        JSON.stringify({
          error: {
            code: 'validation/invalid_body',
            message: 'The request body is not valid',
            details: [
              { path: 'BOOKING_EXPIRATION_MINUTES', message: 'Too big: expected number to be <=240' },
            ],
          },
        }),
        { status: 400, headers: { 'Content-Type': 'application/json' } },
      ),
    });
    const message = await failureOf(
      adminCall(settingsRoutes.updateSystem, { body: { BOOKING_EXPIRATION_MINUTES: 15 } }),
    );
    expect(message).toBe('Dati non validi (campo: BOOKING_EXPIRATION_MINUTES)');
  });

  it("keeps the server's own Italian message where it names specifics, and only there", () => {
    const specific = 'Il codice ESTATE20 è in uso in un pagamento in corso: non può essere rinominato ora';
    expect(adminErrorMessage('discount/in_use', specific)).toBe(specific);
    expect(adminErrorMessage('discount/in_use', 'A checkout in progress uses this discount code')).toBe(
      'Un pagamento in corso usa questo codice: riprova tra qualche minuto',
    );
    expect(adminErrorMessage('bridge/command_failed', 'Controller said: locker busy')).toBe(
      'Il controller del locker ha rifiutato il comando',
    );
    expect(adminErrorMessage('settings/block_windows_overlap', 'Two block windows overlap')).toBe(
      'Due finestre di blocco si sovrappongono: uniscile in una sola',
    );
    // A code newer than this page: the server's message rather than nothing.
    expect(adminErrorMessage('future/code', 'Qualcosa di nuovo')).toBe('Qualcosa di nuovo');
  });

  it("words a form schema's problems: by code, the form's own text, or the field's label and kind", () => {
    const schema = z.object({
      pricing: z.object({ hours: priceRowsSchema }),
      port: z.number().int().min(1).max(65_535),
      nome: z.string().trim().min(1),
      pin: z.string().regex(/^\d{6}$/),
      apertura: zTimeOfDay,
      other: z.string().min(3),
    });
    const issues = schema.safeParse({
      pricing: { hours: [{ duration: '3', price: 0 }] },
      port: 70_000,
      nome: ' ',
      pin: '12',
      apertura: '7:00',
      other: 'x',
    }).error!.issues;
    const names = {
      labels: { 'pricing.hours': 'Standard, ore', port: 'Porta', nome: 'Nome', apertura: 'Apertura' },
      texts: { pin: 'Il PIN deve avere 6 cifre' },
    };
    expect(issues.map((issue) => issueText(issue, names))).toEqual([
      // A coded sentence, after what holds the field.
      'Standard, ore: Ogni prezzo deve essere maggiore di zero',
      'Porta: al massimo 65535',
      'Nome: obbligatorio',
      'Il PIN deve avere 6 cifre',
      'Apertura: usa il formato HH:mm',
      // Nothing names it: the path, as for the server's validation errors.
      'Dati non validi (campo: other)',
    ]);
  });
});
