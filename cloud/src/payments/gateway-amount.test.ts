import { describe, expect, it } from 'vitest';
import { centsToGatewayAmount, gatewayAmountToCents } from './gateway-amount';

describe('gateway amounts', () => {
  it('writes cents as euros with two decimals', () => {
    expect(centsToGatewayAmount(1250)).toBe('12.50');
    expect(centsToGatewayAmount(100)).toBe('1.00');
    expect(centsToGatewayAmount(5)).toBe('0.05');
    expect(centsToGatewayAmount(123456)).toBe('1234.56');
    expect(() => centsToGatewayAmount(12.5)).toThrow(RangeError);
    expect(() => centsToGatewayAmount(-1)).toThrow(RangeError);
  });

  it('reads euros back to cents without floating point', () => {
    expect(gatewayAmountToCents('12.50')).toBe(1250);
    expect(gatewayAmountToCents('12.5')).toBe(1250);
    expect(gatewayAmountToCents('12')).toBe(1200);
    expect(gatewayAmountToCents('0,10')).toBe(10);
    expect(gatewayAmountToCents('1.005')).toBeNull();
    expect(gatewayAmountToCents('-1.00')).toBeNull();
    expect(gatewayAmountToCents('1e3')).toBeNull();
    expect(gatewayAmountToCents('')).toBeNull();
  });
});
