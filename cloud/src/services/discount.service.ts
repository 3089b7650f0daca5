import {
  DEFAULT_TIMEZONE,
  todayInZone,
  type AppliedDiscount,
  type DiscountValidation,
  type Duration,
  type ErrorCode,
} from '@deposito/protocol';
import { discountEligibility, type DiscountRefusal } from '@deposito/protocol/pricing/discount-eligibility';
import type { Clock } from '../clock';
import { AppError } from '../errors';
import type { DiscountRecord } from '../store/discount.repository';
import type { Store } from '../store/store';

/** Refusals as API error codes, translation keys and the Italian text the pages show by default. */
const REFUSALS: Record<
  DiscountRefusal | 'unknown',
  { code: ErrorCode; messageKey: string; message: string }
> = {
  unknown: {
    code: 'discount/invalid',
    messageKey: 'discount.error.invalid',
    message: 'Codice sconto non valido.',
  },
  malformed: {
    code: 'discount/invalid',
    messageKey: 'discount.error.invalid',
    message: 'Codice sconto non valido.',
  },
  not_yet_valid: {
    code: 'discount/invalid',
    messageKey: 'discount.error.notYetValid',
    message: 'Codice sconto non ancora valido.',
  },
  expired: {
    code: 'discount/expired',
    messageKey: 'discount.error.expired',
    message: 'Codice sconto scaduto.',
  },
  min_days: {
    code: 'discount/min_days',
    messageKey: 'discount.error.minDays',
    message: 'Codice valido solo per prenotazioni di almeno {{minDays}} giorni.',
  },
  already_used: {
    code: 'discount/already_used',
    messageKey: 'discount.error.alreadyUsed',
    message: 'Codice sconto già utilizzato.',
  },
};

export type DiscountCheck =
  | { ok: true; record: DiscountRecord; discount: AppliedDiscount; warning: 'min_days_unchecked' | null }
  | { ok: false; refusal: DiscountRefusal | 'unknown'; record: DiscountRecord | null };

function fill(template: string, params: Record<string, string | number>): string {
  return template.replace(/\{\{(\w+)\}\}/g, (_, name: string) => String(params[name] ?? ''));
}

export class DiscountService {
  constructor(
    private readonly store: Store,
    private readonly clock: Clock,
  ) {}

  /** Whether `code` applies, for a booking `transactionId` (whose own claim does not count against it). */
  async check(input: {
    code: string;
    duration?: Duration | null;
    zone?: string;
    transactionId?: string;
  }): Promise<DiscountCheck> {
    const record = await this.store.discounts.get(input.code.trim());
    if (!record) return { ok: false, refusal: 'unknown', record: null };
    const eligibility = discountEligibility({
      terms: record,
      today: todayInZone(this.clock.now(), input.zone ?? DEFAULT_TIMEZONE),
      duration: input.duration ?? null,
      takenByAnother: record.usableOnce && record.usedAt !== null && record.usedBy !== input.transactionId,
    });
    return eligibility.ok
      ? { ok: true, record, discount: eligibility.discount, warning: eligibility.warning }
      : { ok: false, refusal: eligibility.reason, record };
  }

  /** The answer of `POST /api/discounts/validate-discount`: never an error for a bad code, `valid: false`. */
  async validate(input: {
    code: string;
    duration?: Duration | null;
    zone?: string;
  }): Promise<DiscountValidation> {
    const result = await this.check(input);
    if (!result.ok) {
      const refusal = REFUSALS[result.refusal];
      const messageParams = result.record?.minDays ? { minDays: result.record.minDays } : undefined;
      return {
        valid: false,
        value: null,
        type: null,
        warning: null,
        message: fill(refusal.message, messageParams ?? {}),
        messageKey: refusal.messageKey,
        ...(messageParams && { messageParams }),
      };
    }
    const minDays = result.record.minDays;
    return {
      valid: true,
      value: result.discount.value,
      type: result.discount.type,
      warning:
        result.warning === 'min_days_unchecked'
          ? `Valido solo per prenotazioni di almeno ${minDays} giorni.`
          : null,
      message: 'Codice sconto applicato.',
      messageKey: 'discount.applied',
      messageParams: {
        value: result.discount.value,
        type: result.discount.type,
        ...(minDays ? { minDays } : {}),
      },
    };
  }

  /**
   * Applies `code` to a pending booking: checks it and, for a single-use code, claims it for the
   * booking (only one booking can win a claim). Throws the refusal's error code otherwise.
   */
  async claimFor(input: {
    code: string;
    transactionId: string;
    duration: Duration;
    zone: string;
  }): Promise<AppliedDiscount> {
    const result = await this.check(input);
    if (!result.ok) {
      const refusal = REFUSALS[result.refusal];
      throw new AppError(refusal.code, fill(refusal.message, { minDays: result.record?.minDays ?? '' }));
    }
    if (result.record.usableOnce) {
      const claimed = await this.store.discounts.claim(
        result.record.code,
        input.transactionId,
        this.clock.now(),
      );
      if (!claimed) throw new AppError('discount/already_used', REFUSALS.already_used.message);
    }
    return result.discount;
  }

  async release(code: string, transactionId: string): Promise<void> {
    await this.store.discounts.releaseClaim(code, transactionId);
  }
}
