import { beforeEach, describe, expect, it } from 'vitest';
import { forgetFlowsOf } from './flow-history';

const saved = (state: unknown) => JSON.stringify({ savedAt: Date.now(), state });

describe('forgetFlowsOf', () => {
  beforeEach(() => sessionStorage.clear());

  it('forgets the flows holding the booking, at any depth, and keeps the others', () => {
    sessionStorage.setItem(
      'deposito.flow.daytime.vicolo',
      saved({ view: 'summary', hold: { transactionId: 'T-1' } }),
    );
    sessionStorage.setItem('deposito.flow.night.vicolo', saved({ step: 'pay', holds: [{ id: 'T-2' }] }));
    sessionStorage.setItem(
      'deposito.flow.daytime.oca',
      saved({ view: 'summary', note: 'about T-1 and more' }),
    );
    sessionStorage.setItem('other.T-1', saved({ id: 'T-1' }));

    forgetFlowsOf('T-1');
    forgetFlowsOf('T-2');

    expect(Object.keys(sessionStorage).sort()).toEqual(['deposito.flow.daytime.oca', 'other.T-1']);
  });

  it('drops a saved flow it cannot read', () => {
    sessionStorage.setItem('deposito.flow.daytime.vicolo', '{not json');
    forgetFlowsOf('T-1');
    expect(sessionStorage.getItem('deposito.flow.daytime.vicolo')).toBeNull();
  });
});
