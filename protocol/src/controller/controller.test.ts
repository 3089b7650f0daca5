import { describe, expect, it } from 'vitest';
import {
  controllerRequestFields,
  controllerUrl,
  lockerStateCode,
  lockerStateFromCode,
  parseControllerRequestFields,
  readControllerAnswer,
} from './index';

const credentials = { key: 'k', mastercode: 'm' };

describe('controller locker states', () => {
  it.each([
    [1, 'free', false],
    [2, 'booked', false],
    [3, 'inhibited', false],
    [6, 'free', true],
    [7, 'booked', true],
    [8, 'inhibited', true],
    [0, 'unknown', false],
    [4, 'unknown', false],
    [5, 'unknown', false],
    [9, 'unknown', false],
    [-1, 'unknown', false],
  ])('code %i is %s, door open %s', (code, occupancy, doorOpen) => {
    expect(lockerStateFromCode(code)).toEqual({ occupancy, doorOpen });
  });

  it('maps states back to the same codes', () => {
    for (const code of [1, 2, 3, 6, 7, 8]) expect(lockerStateCode(lockerStateFromCode(code))).toBe(code);
    expect(lockerStateCode({ occupancy: 'unknown', doorOpen: true })).toBe(0);
  });
});

describe('controller requests', () => {
  it('builds the form fields of each operation', () => {
    expect(controllerRequestFields(credentials, { operation: 'getLockersState' })).toEqual(credentials);
    expect(controllerRequestFields(credentials, { operation: 'open', locker: 3 })).toEqual({
      ...credentials,
      locker: '3',
    });
    expect(
      controllerRequestFields(credentials, {
        operation: 'book',
        locker: 3,
        pin: '123456',
        from: '2025-01-01T10:00:00.000Z',
        to: '2025-01-01T12:00:00.000Z',
      }),
    ).toEqual({
      ...credentials,
      locker: '3',
      PIN: '123456',
      from: '2025-01-01T10:00:00.000Z',
      to: '2025-01-01T12:00:00.000Z',
    });
    expect(
      controllerRequestFields(credentials, {
        operation: 'history',
        startDate: '2025-01-01T00:00:00.000Z',
        endDate: '2025-01-02T00:00:00.000Z',
      }),
    ).toEqual({
      ...credentials,
      index: '0',
      startDate: '2025-01-01T00:00:00.000Z',
      endDate: '2025-01-02T00:00:00.000Z',
    });
  });

  it('reads received fields back, and refuses bad ones', () => {
    const fields = controllerRequestFields(credentials, {
      operation: 'book',
      locker: 3,
      pin: '1234',
      from: '2025-01-01T10:00:00.000Z',
      to: '2025-01-01T12:00:00.000Z',
    });
    expect(parseControllerRequestFields('book', fields)).toMatchObject({
      ok: true,
      credentials,
      request: { operation: 'book', locker: 3, pin: '1234' },
    });
    expect(parseControllerRequestFields('book', { ...fields, PIN: 'abc' }).ok).toBe(false);
    expect(parseControllerRequestFields('open', { ...credentials }).ok).toBe(false);
    expect(parseControllerRequestFields('open', { locker: '1' }).ok).toBe(false);
  });

  it('builds URLs, bracketing IPv6 hosts', () => {
    expect(controllerUrl('10.0.0.5', 11000, 'open')).toBe('http://10.0.0.5:11000/open');
    expect(controllerUrl('::1', 11000, 'history')).toBe('http://[::1]:11000/history');
  });
});

describe('controller answers', () => {
  it('reads a state answer with one or several lockers', () => {
    const one = readControllerAnswer({
      getLockersStateResponse: {
        response: '0',
        description: 'OK',
        lockers: { locker: { number: '1', state: '7' } },
      },
    });
    expect(one).toEqual({
      ok: true,
      answer: {
        operation: 'getLockersState',
        response: 0,
        description: 'OK',
        lockers: [{ number: 1, code: 7, state: { occupancy: 'booked', doorOpen: true } }],
      },
    });
    const many = readControllerAnswer({
      getLockersStateResponse: {
        response: '0',
        lockers: {
          locker: [
            { number: '1', state: '1', size: 'large' },
            { number: '2', state: '42' },
          ],
        },
      },
    });
    expect(many.ok && many.answer.operation === 'getLockersState' && many.answer.lockers.length).toBe(2);
  });

  it('reads an empty list and a refusal without lockers', () => {
    expect(readControllerAnswer({ getLockersStateResponse: { response: '0', lockers: '' } })).toMatchObject({
      ok: true,
      answer: { lockers: [] },
    });
    expect(
      readControllerAnswer({ openResponse: { response: '5', description: 'locker busy' } }),
    ).toMatchObject({
      ok: true,
      answer: { operation: 'open', response: 5, description: 'locker busy' },
    });
  });

  it('reads history, normalising dates to UTC', () => {
    const result = readControllerAnswer({
      historyResponse: {
        response: '0',
        from: '2025-01-01T00:00:00Z',
        To: '2025-01-02T00:00:00+01:00',
        events: { event: { index: '3', locker: '2', date: '2025-01-01T10:00:00+01:00', type: 'door_open' } },
      },
    });
    expect(result).toMatchObject({
      ok: true,
      answer: {
        to: '2025-01-01T23:00:00.000Z',
        entries: [{ index: 3, locker: 2, date: '2025-01-01T09:00:00.000Z', type: 'door_open' }],
      },
    });
  });

  it.each([
    ['a string', 'hello'],
    ['two roots', { openResponse: { response: '0' }, bookResponse: { response: '0' } }],
    ['an unknown root', { rebootResponse: { response: '0' } }],
    ['a non-numeric response', { openResponse: { response: 'zero' } }],
    ['an unexpected element', { openResponse: { response: '0', debug: 'x' } }],
    ['success without lockers', { getLockersStateResponse: { response: '0' } }],
    [
      'a locker without number',
      { getLockersStateResponse: { response: '0', lockers: { locker: { state: '1' } } } },
    ],
  ])('refuses %s', (_label, tree) => {
    expect(readControllerAnswer(tree).ok).toBe(false);
  });
});
