import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { computeMonthlyTakings, type LocationConnection } from '@deposito/protocol';
import { PromotecClient, PromotecTakings, type PromotecErrorLogEntry } from './promotec-client';
import { PromotecError } from './promotec-errors';
import { PromotecSimulator, simulatedProceeds } from './promotec-simulator';
import { closedPort } from '../../test/closed-port';

const NOW = new Date('2026-07-15T12:00:00Z');

let roma: PromotecSimulator;
let campo: PromotecSimulator;

beforeEach(async () => {
  roma = await PromotecSimulator.start({ locationKey: 'roma', zone: 'Europe/Rome', now: () => NOW });
  campo = await PromotecSimulator.start({
    locationKey: 'campo',
    zone: 'Europe/London',
    now: () => NOW,
    oversizeBytes: 1024 * 1024,
  });
});

afterEach(async () => {
  await Promise.all([roma.close(), campo.close()]);
});

function connection(key: string, simulator: PromotecSimulator): LocationConnection {
  return { key, name: key.toUpperCase(), ...simulator.address };
}

async function failureOf(promise: Promise<unknown>): Promise<PromotecError> {
  const error = await promise.then(
    () => undefined,
    (reason: unknown) => reason,
  );
  expect(error).toBeInstanceOf(PromotecError);
  return error as PromotecError;
}

describe('PromotecClient against the simulator', () => {
  it('reads a month of kiosk payments, the same on every call', async () => {
    const client = new PromotecClient();
    const june = await client.fetchProceeds(roma.address, '2026-06');
    expect(june).toEqual(simulatedProceeds('roma', 'Europe/Rome', '2026-06'));
    expect(june.length).toBeGreaterThan(30);
    expect(await client.fetchProceeds(roma.address, '2026-06')).toEqual(june);
    expect(await client.fetchProceeds(campo.address, '2026-06')).not.toEqual(june);
    expect(roma.requestedMonths).toEqual(['2026-06', '2026-06']);
  });

  it('reports the current month only up to now', async () => {
    const july = await new PromotecClient().fetchProceeds(roma.address, '2026-07');
    expect(july.length).toBeGreaterThan(0);
    expect(july.every((payment) => new Date(payment.date) <= NOW)).toBe(true);
    expect(await new PromotecClient().fetchProceeds(roma.address, '2026-08')).toEqual([]);
  });

  it('fails with http_status on HTTP 500', async () => {
    roma.failWith('http-500');
    const error = await failureOf(new PromotecClient().fetchProceeds(roma.address, '2026-06'));
    expect(error.code).toBe('promotec/http_status');
    expect(error.message).toBe(`127.0.0.1:${roma.port} ha risposto HTTP 500`);
  });

  it('gives up after the configured timeout when the kiosk never answers', async () => {
    roma.failWith('hang');
    const started = Date.now();
    const error = await failureOf(
      new PromotecClient({ timeoutMs: 300 }).fetchProceeds(roma.address, '2026-06'),
    );
    expect(error.code).toBe('promotec/timeout');
    expect(error.message).toBe(`nessuna risposta da 127.0.0.1:${roma.port} entro 300 ms`);
    expect(Date.now() - started).toBeLessThan(3_000);
  });

  it('rejects malformed XML and schema-invalid payments', async () => {
    roma.failWith('malformed-xml');
    const malformed = await failureOf(new PromotecClient().fetchProceeds(roma.address, '2026-06'));
    expect(malformed.code).toBe('promotec/malformed_response');
    expect(malformed.message).toMatch(/XML non valido/);

    roma.failWith('invalid-record');
    const invalid = await failureOf(new PromotecClient().fetchProceeds(roma.address, '2026-06'));
    expect(invalid.code).toBe('promotec/malformed_response');
    expect(invalid.message).toMatch(/amount/);
  });

  it('stops reading an answer over the size limit, streamed or announced', async () => {
    campo.failWith('oversize');
    const streamed = await failureOf(
      new PromotecClient({ maxResponseBytes: 64 * 1024 }).fetchProceeds(campo.address, '2026-06'),
    );
    expect(streamed.code).toBe('promotec/response_too_large');

    // A normal answer carries its content length, which is enough to refuse it unread.
    const announced = await failureOf(
      new PromotecClient({ maxResponseBytes: 1_000 }).fetchProceeds(roma.address, '2026-06'),
    );
    expect(announced.code).toBe('promotec/response_too_large');
    expect(announced.message).toBe(`risposta di 127.0.0.1:${roma.port} oltre 1000 byte`);
  });

  it('tells a dropped connection from an unreachable kiosk', async () => {
    roma.failWith('drop-connection');
    expect((await failureOf(new PromotecClient().fetchProceeds(roma.address, '2026-06'))).code).toBe(
      'promotec/connection_lost',
    );
    const port = await closedPort();
    const unreachable = await failureOf(
      new PromotecClient().fetchProceeds({ recipient: '127.0.0.1', port }, '2026-06'),
    );
    expect(unreachable.code).toBe('promotec/unreachable');
    expect(unreachable.message).toBe(`127.0.0.1:${port} non raggiungibile (ECONNREFUSED)`);
  });
});

describe('PromotecTakings', () => {
  function takings(log: PromotecErrorLogEntry[]) {
    return new PromotecTakings({
      client: new PromotecClient({ timeoutMs: 2_000 }),
      errorLog: { add: (entry) => void log.push(entry) },
      now: () => NOW,
    });
  }

  it('gives a failing location an empty month and an error-log entry, the others their data', async () => {
    const log: PromotecErrorLogEntry[] = [];
    roma.failWith('http-500');
    const totem = await takings(log).totemForMonth(
      [connection('roma', roma), connection('campo', campo)],
      '2026-06',
    );

    expect(totem.roma).toEqual([]);
    expect(totem.campo).toEqual(simulatedProceeds('campo', 'Europe/London', '2026-06'));
    expect(log).toEqual([
      {
        at: NOW,
        type: 'promotec',
        locationKey: 'roma',
        lockerId: null,
        message: `Impossibile contattare il sistema Promotec: 127.0.0.1:${roma.port} ha risposto HTTP 500`,
      },
    ]);

    // The kiosk payments feed the monthly sums as they are.
    const report = computeMonthlyTakings({
      month: '2026-06',
      locations: [
        { key: 'roma', name: 'Roma', zone: 'Europe/Rome' },
        { key: 'campo', name: 'Campo', zone: 'Europe/London' },
      ],
      bookings: [],
      totem,
    });
    expect(report.locations[0].totalCents).toBe(0);
    expect(report.totals.totemCents).toBe(totem.campo.reduce((sum, payment) => sum + payment.amountCents, 0));
  });

  it('does not hide a failing error log', async () => {
    roma.failWith('http-500');
    const broken = new PromotecTakings({
      errorLog: {
        add: () => Promise.reject(new Error('store down')),
      },
    });
    await expect(broken.fetchMonthProceeds(connection('roma', roma), '2026-06')).rejects.toThrow(
      'store down',
    );
  });

  it('tests connections one location after another, with the error of each failure', async () => {
    const log: PromotecErrorLogEntry[] = [];
    campo.failWith('malformed-xml');
    const results = await takings(log).testConnections([
      connection('roma', roma),
      connection('campo', campo),
    ]);
    expect(results).toEqual([
      { key: 'roma', success: true },
      {
        key: 'campo',
        success: false,
        error: expect.stringMatching(/^risposta non valida da 127\.0\.0\.1:\d+: XML/),
      },
    ]);
    expect(roma.requestedMonths).toEqual(['2026-07']);
    expect(log).toEqual([]);
  });
});
