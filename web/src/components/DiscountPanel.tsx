import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Duration } from '@deposito/protocol/pricing/price-table';
import type { AppliedDiscount } from '@deposito/protocol/pricing/totals';
import type { DiscountValidation } from '@deposito/protocol/schemas/discount';
import { validateDiscount } from '../api/deposito-api';

type PanelState =
  | { kind: 'idle' }
  | { kind: 'checking' }
  | { kind: 'checked'; result: DiscountValidation }
  | { kind: 'failed' };

/**
 * The discount code field: the code is checked by the server, which also says the effect
 * (percent or euros); the totals are then recomputed with protocol's bookingTotals by the parent.
 */
export function DiscountPanel({
  duration,
  location,
  onChange,
  disabled = false,
}: {
  duration: Duration | null;
  location?: string;
  onChange: (discount: { code: string; effect: AppliedDiscount } | null) => void;
  disabled?: boolean;
}) {
  const { t } = useTranslation();
  const inputId = useId();
  const statusId = useId();
  const [code, setCode] = useState('');
  const [state, setState] = useState<PanelState>({ kind: 'idle' });

  async function apply() {
    const trimmed = code.trim();
    // The discount status is reset before each attempt.
    onChange(null);
    if (!trimmed) {
      setState({ kind: 'idle' });
      return;
    }
    setState({ kind: 'checking' });
    try {
      const result = await validateDiscount(trimmed, duration, location);
      setState({ kind: 'checked', result });
      if (result.valid && result.type && typeof result.value === 'number') {
        onChange({ code: trimmed, effect: { type: result.type, value: result.value } });
      }
    } catch {
      setState({ kind: 'failed' });
    }
  }

  const result = state.kind === 'checked' ? state.result : null;
  const message = result
    ? result.messageKey
      ? t(result.messageKey, { ...result.messageParams, defaultValue: result.message ?? '' })
      : (result.message ?? t(result.valid ? 'discount.applied' : 'discount.invalid'))
    : '';

  return (
    <div className="field">
      <label htmlFor={inputId}>{t('discount.label')}</label>
      <div className="discount-row">
        <input
          id={inputId}
          className="input"
          autoComplete="off"
          autoCapitalize="characters"
          value={code}
          disabled={disabled}
          aria-describedby={statusId}
          onChange={(event) => setCode(event.target.value)}
          onKeyDown={(event) => {
            if (event.key === 'Enter') {
              event.preventDefault();
              void apply();
            }
          }}
        />
        <button
          type="button"
          className="button button-secondary"
          disabled={disabled || state.kind === 'checking' || code.trim() === ''}
          onClick={() => void apply()}
        >
          {t('discount.apply')}
        </button>
      </div>
      <div id={statusId} aria-live="polite">
        {state.kind === 'checking' && <p className="field-hint">{t('discount.checking')}</p>}
        {state.kind === 'failed' && <p className="text-error">{t('discount.error.network')}</p>}
        {result?.warning && <p className="text-warning">{result.warning}</p>}
        {result && message && <p className={result.valid ? 'text-ok' : 'text-error'}>{message}</p>}
      </div>
    </div>
  );
}
