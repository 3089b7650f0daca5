import type { PriceRow, PricingRows } from '../location-form';
import { HiddenHeader } from './ui';

const SIZES = [
  ['standard', 'Standard'],
  ['large', 'Grande'],
] as const;
const UNITS = [
  ['hours', 'Ore'],
  ['days', 'Giorni'],
] as const;
/** A price row's two inputs: the duration as typed, and the price in euros with cents. */
const ROW_FIELDS = [
  { field: 'duration', name: 'durata', input: {} },
  { field: 'price', name: 'prezzo', input: { type: 'number', step: '0.01', min: 0 } },
] as const;

/** Price tables per size, split into hours and days; rows without a duration or a numeric price are dropped on save. */
export function PricingEditor({
  rows,
  onChange,
}: {
  rows: PricingRows;
  onChange: (rows: PricingRows) => void;
}) {
  function update(size: keyof PricingRows, unit: 'hours' | 'days', next: PriceRow[]) {
    onChange({ ...rows, [size]: { ...rows[size], [unit]: next } });
  }
  /** One row of one table changed. */
  function setRow(size: keyof PricingRows, unit: 'hours' | 'days', index: number, change: Partial<PriceRow>) {
    update(
      size,
      unit,
      rows[size][unit].map((r, i) => (i === index ? { ...r, ...change } : r)),
    );
  }
  return (
    <div className="adm-pricing">
      {SIZES.map(([size, sizeLabel]) => (
        <div key={size} className="adm-pricing-size">
          <h3>{sizeLabel}</h3>
          <div className="adm-pricing-units">
            {UNITS.map(([unit, unitLabel]) => {
              const list = rows[size][unit];
              return (
                <table key={unit} className="adm-table adm-table-compact">
                  <thead>
                    <tr>
                      <th>{unitLabel}</th>
                      <th>Prezzo €</th>
                      <HiddenHeader>Azioni</HiddenHeader>
                    </tr>
                  </thead>
                  <tbody>
                    {list.map((row, index) => (
                      <tr key={index}>
                        {ROW_FIELDS.map(({ field, name, input }) => (
                          <td key={field}>
                            <input
                              className="adm-input adm-input-narrow"
                              {...input}
                              aria-label={`${sizeLabel} ${unitLabel} ${name}`}
                              value={row[field]}
                              onChange={(e) => setRow(size, unit, index, { [field]: e.target.value })}
                            />
                          </td>
                        ))}
                        <td>
                          <button
                            type="button"
                            className="adm-icon-btn"
                            aria-label="Rimuovi riga"
                            onClick={() =>
                              update(
                                size,
                                unit,
                                list.filter((_, i) => i !== index),
                              )
                            }
                          >
                            ×
                          </button>
                        </td>
                      </tr>
                    ))}
                    <tr>
                      <td colSpan={3}>
                        <button
                          type="button"
                          className="adm-link"
                          onClick={() => update(size, unit, [...list, { duration: '', price: '' }])}
                        >
                          + Aggiungi riga
                        </button>
                      </td>
                    </tr>
                  </tbody>
                </table>
              );
            })}
          </div>
        </div>
      ))}
    </div>
  );
}
