import { centsToEuros, eurosToCents, type DiscountCode, type DiscountCodeInput } from '@deposito/protocol';
import type { Clock } from '../clock';
import { AppError } from '../errors';
import type { DiscountRecord } from '../store/discount.repository';
import type { Store } from '../store/store';
import type { AdminActivityLog } from './admin-activity.service';
import type { AdminIdentity } from './auth.service';

/** A stored code as the admin list shows it: percent or euros, `timesUsed` 1 once a single-use code is taken. */
export function toDiscountCode(record: DiscountRecord): DiscountCode {
  return {
    code: record.code,
    description: record.description,
    discountPercent: record.percent,
    discountEuro: record.amountCents === null ? null : centsToEuros(record.amountCents),
    validFrom: record.validFrom,
    validTo: record.validTo,
    usableOnce: record.usableOnce,
    minDays: record.minDays,
    timesUsed: record.usedAt ? 1 : 0,
  };
}

type ParsedDiscountInput = Required<Pick<DiscountCodeInput, 'code'>> & {
  description: string;
  discountPercent?: number | null;
  discountEuro?: number | null;
  validFrom: string | null;
  validTo: string | null;
  usableOnce: boolean;
  minDays?: number | null;
};

/** Gestione Codici Sconto: list, create, delete (an edit is a delete then a create). */
export class DiscountAdminService {
  constructor(
    private readonly store: Store,
    private readonly clock: Clock,
    private readonly activity: AdminActivityLog,
  ) {}

  async list(): Promise<DiscountCode[]> {
    return (await this.store.discounts.list()).map(toDiscountCode);
  }

  async create(actor: AdminIdentity, input: ParsedDiscountInput): Promise<DiscountCode> {
    const code = input.code.trim();
    const created = await this.store.discounts.create(
      {
        code,
        description: input.description,
        percent: input.discountPercent ?? null,
        amountCents: input.discountEuro == null ? null : eurosToCents(input.discountEuro),
        validFrom: input.validFrom,
        validTo: input.validTo,
        usableOnce: input.usableOnce,
        minDays: input.minDays ?? null,
      },
      this.clock.now(),
    );
    if (!created) throw new AppError('discount/already_exists', `Il codice ${code} esiste già`);
    const value = input.discountPercent != null ? `${input.discountPercent}%` : `€${input.discountEuro}`;
    await this.activity.record(actor, 'admin/discount_created', `Codice sconto ${code} creato (${value})`);
    const record = await this.store.discounts.get(code);
    return toDiscountCode(record!);
  }

  async delete(actor: AdminIdentity, code: string): Promise<void> {
    if (!(await this.store.discounts.delete(code))) {
      throw new AppError('discount/not_found', `Il codice ${code} non esiste`);
    }
    await this.activity.record(actor, 'admin/discount_deleted', `Codice sconto ${code} eliminato`);
  }
}
