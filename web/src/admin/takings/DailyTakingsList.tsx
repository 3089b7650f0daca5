import {
  formatEuros,
  sortTakingsDays,
  TAKINGS_SORT_LABELS,
  takingsSortOrderSchema,
  type DayTakings,
  type TakingsSortOrder,
} from '@deposito/protocol';
import { useId } from 'react';
import { Options } from '../../components/Options';

/** The "Ordina per" selector of the daily lists. */
export function TakingsSortSelect({
  value,
  onChange,
}: {
  value: TakingsSortOrder;
  onChange: (order: TakingsSortOrder) => void;
}) {
  const id = useId();
  return (
    <span className="adm-tk-sort">
      <label htmlFor={id}>Ordina per</label>
      <select
        id={id}
        className="adm-input adm-tk-sort-select"
        value={value}
        onChange={(event) => onChange(takingsSortOrderSchema.parse(event.target.value))}
      >
        <Options items={takingsSortOrderSchema.options} label={(order) => TAKINGS_SORT_LABELS[order]} />
      </select>
    </span>
  );
}

/** One row per day with takings: weekday, date, day total and, with details, online and totem. */
export function DailyTakingsList({
  days,
  order,
  showDetails,
  label,
}: {
  days: readonly DayTakings[];
  order: TakingsSortOrder;
  showDetails: boolean;
  /** Accessible name of the list, e.g. "Incassi giornalieri di Roma Termini". */
  label: string;
}) {
  return (
    <ul className="adm-tk-days" aria-label={label}>
      {sortTakingsDays(days, order).map((day) => (
        <li key={day.date} className="adm-tk-day">
          <div className="adm-tk-day-when">
            <span className="adm-tk-weekday">{day.weekday}</span>
            <span className="adm-tk-date">{day.label}</span>
          </div>
          {showDetails ? (
            <div className="adm-tk-day-split">
              <span>
                Online <strong>{formatEuros(day.onlineCents)}</strong>
              </span>
              {day.totemCents > 0 ? (
                <span>
                  Totem <strong>{formatEuros(day.totemCents)}</strong>
                </span>
              ) : (
                <span aria-hidden="true" />
              )}
              {day.refundCents > 0 ? (
                <span>
                  Rimborsi <strong>− {formatEuros(day.refundCents)}</strong>
                </span>
              ) : null}
            </div>
          ) : null}
          <div className="adm-tk-day-total">{formatEuros(day.totalCents)}</div>
        </li>
      ))}
    </ul>
  );
}
