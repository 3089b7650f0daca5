import {
  formatEuros,
  italianMonthTitle,
  italianWeekdayName,
  takingsDayLabel,
  type DayTakings,
} from '@deposito/protocol';
import { DateTime } from 'luxon';
import { useId, useMemo, useState } from 'react';

// A hand-drawn bar chart of a month's daily takings: one bar per calendar day, online and totem
// stacked. Every bar is focusable and names its figures, so the chart reads without a mouse too.

const WIDTH = 720;
const HEIGHT = 240;
const PLOT = { left: 64, right: 12, top: 14, bottom: 30 };

interface ChartDay {
  date: string;
  label: string;
  weekday: string;
  onlineCents: number;
  totemCents: number;
  totalCents: number;
}

/** Every day of the month with what was taken (zero when nothing). */
function monthDays(month: string, days: readonly DayTakings[]): ChartDay[] {
  const byDate = new Map(days.map((day) => [day.date, day]));
  const first = DateTime.fromFormat(month, 'yyyy-MM', { zone: 'UTC' });
  return Array.from({ length: first.daysInMonth ?? 31 }, (_, i) => {
    const date = first.plus({ days: i }).toISODate()!;
    const day = byDate.get(date);
    return {
      date,
      label: takingsDayLabel(date),
      weekday: italianWeekdayName(date),
      onlineCents: day?.onlineCents ?? 0,
      totemCents: day?.totemCents ?? 0,
      totalCents: day?.totalCents ?? 0,
    };
  });
}

/** A round step for the value axis: 1, 2 or 5 × 10^n euros, in cents. */
function axisStep(maxCents: number, ticks = 4): number {
  const raw = Math.max(maxCents, 100) / ticks;
  const magnitude = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 5, 10].map((m) => m * magnitude).find((candidate) => candidate >= raw)!;
  return Math.ceil(step / 100) * 100;
}

function axisLabel(cents: number): string {
  const euros = cents / 100;
  return euros >= 1000
    ? `${(euros / 1000).toLocaleString('it-IT')}k €`
    : `${euros.toLocaleString('it-IT')} €`;
}

function describe(day: ChartDay): string {
  const parts = [`${day.weekday} ${day.label}: totale ${formatEuros(day.totalCents)}`];
  if (day.totalCents > 0) parts.push(`online ${formatEuros(day.onlineCents)}`);
  if (day.totemCents > 0) parts.push(`totem ${formatEuros(day.totemCents)}`);
  return parts.join(', ');
}

/** Where the month's bars stand: each day's slot, the bar within it, and cents to height on the plot. */
interface ChartScale {
  slot: number;
  barWidth: number;
  plotHeight: number;
  y: (cents: number) => number;
}

/** One day's stacked bar (online below, totem above), focusable, with its day number every five days. */
function ChartBar({
  day,
  index,
  scale: { slot, barWidth, plotHeight, y },
  active,
  onActive,
}: {
  day: ChartDay;
  index: number;
  scale: ChartScale;
  active: boolean;
  onActive: (on: boolean) => void;
}) {
  const x = PLOT.left + index * slot + (slot - barWidth) / 2;
  // The stack, bottom up: each part from its lower to its upper amount, drawn when it has any.
  const parts = [
    { className: 'adm-tk-bar-online', shown: day.onlineCents > 0, from: 0, to: day.onlineCents },
    { className: 'adm-tk-bar-totem', shown: day.totemCents > 0, from: day.onlineCents, to: day.totalCents },
  ];
  const dayNumber = index + 1;
  const showLabel = dayNumber === 1 || dayNumber % 5 === 0;
  return (
    <g
      className={`adm-tk-bar${active ? ' adm-tk-bar-active' : ''}`}
      tabIndex={0}
      role="img"
      aria-label={describe(day)}
      onMouseEnter={() => onActive(true)}
      onMouseLeave={() => onActive(false)}
      onFocus={() => onActive(true)}
      onBlur={() => onActive(false)}
    >
      <rect
        className="adm-tk-hit"
        x={PLOT.left + index * slot}
        y={PLOT.top}
        width={slot}
        height={plotHeight}
      />
      {parts
        .filter((part) => part.shown)
        .map((part) => (
          <rect
            key={part.className}
            className={part.className}
            x={x}
            y={y(part.to)}
            width={barWidth}
            height={y(part.from) - y(part.to)}
          />
        ))}
      {showLabel ? (
        <text className="adm-tk-axis" x={x + barWidth / 2} y={HEIGHT - 10} textAnchor="middle">
          {dayNumber}
        </text>
      ) : null}
    </g>
  );
}

/** The hovered or focused day's amounts, placed over its bar (percentages of the chart). */
function ChartTooltip({ day, left, top }: { day: ChartDay; left: number; top: number }) {
  return (
    <div className="adm-tk-tooltip" role="status" style={{ left: `${left}%`, top: `${top}%` }}>
      <strong>
        {day.weekday} {day.label}
      </strong>
      <span>Totale {formatEuros(day.totalCents)}</span>
      {day.totalCents > 0 ? <span>Online {formatEuros(day.onlineCents)}</span> : null}
      {day.totemCents > 0 ? <span>Totem {formatEuros(day.totemCents)}</span> : null}
    </div>
  );
}

export function TakingsChart({
  month,
  days,
  scope,
}: {
  month: string;
  days: readonly DayTakings[];
  /** "Tutte le location" or the location's name, for the title. */
  scope: string;
}) {
  const id = useId();
  const [active, setActive] = useState<string | null>(null);
  const series = useMemo(() => monthDays(month, days), [month, days]);
  const max = Math.max(0, ...series.map((day) => day.totalCents));
  const step = axisStep(max);
  const top = step * Math.max(1, Math.ceil(max / step));
  const plotWidth = WIDTH - PLOT.left - PLOT.right;
  const plotHeight = HEIGHT - PLOT.top - PLOT.bottom;
  const slot = plotWidth / series.length;
  const barWidth = Math.max(4, slot * 0.68);
  const y = (cents: number) => PLOT.top + plotHeight - (cents / top) * plotHeight;
  const scale: ChartScale = { slot, barWidth, plotHeight, y };
  const ticks = Array.from({ length: Math.round(top / step) + 1 }, (_, i) => i * step);
  const best = series.reduce((a, b) => (b.totalCents > a.totalCents ? b : a), series[0]);
  const activeDay = series.find((day) => day.date === active) ?? null;
  const activeIndex = activeDay ? series.indexOf(activeDay) : -1;

  const title = `Incassi giornalieri — ${scope}, ${italianMonthTitle(month).toLowerCase()}`;
  const total = series.reduce((sum, day) => sum + day.totalCents, 0);
  const description =
    max === 0
      ? 'Nessun incasso nel mese.'
      : `Barre per giorno, online e totem sovrapposti. Totale ${formatEuros(total)}; ` +
        `giorno migliore ${best.label} con ${formatEuros(best.totalCents)}.`;

  return (
    <figure className="adm-tk-chart">
      <figcaption className="adm-tk-chart-head">
        <span className="adm-tk-chart-title">Andamento giornaliero</span>
        <span className="adm-tk-legend" aria-hidden="true">
          <span>
            <i className="adm-tk-swatch adm-tk-swatch-online" /> Online
          </span>
          <span>
            <i className="adm-tk-swatch adm-tk-swatch-totem" /> Totem
          </span>
        </span>
      </figcaption>
      <div className="adm-tk-chart-frame">
        <svg
          viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
          role="group"
          aria-labelledby={`${id}-title`}
          aria-describedby={`${id}-desc`}
          preserveAspectRatio="xMidYMid meet"
        >
          <title id={`${id}-title`}>{title}</title>
          <desc id={`${id}-desc`}>{description}</desc>
          {ticks.map((tick) => (
            <g key={tick} aria-hidden="true">
              <line
                className="adm-tk-grid"
                x1={PLOT.left}
                x2={WIDTH - PLOT.right}
                y1={y(tick)}
                y2={y(tick)}
              />
              <text className="adm-tk-axis" x={PLOT.left - 8} y={y(tick) + 4} textAnchor="end">
                {axisLabel(tick)}
              </text>
            </g>
          ))}
          {series.map((day, i) => (
            <ChartBar
              key={day.date}
              day={day}
              index={i}
              scale={scale}
              active={active === day.date}
              onActive={(on) =>
                setActive((current) => (on ? day.date : current === day.date ? null : current))
              }
            />
          ))}
          <line className="adm-tk-baseline" x1={PLOT.left} x2={WIDTH - PLOT.right} y1={y(0)} y2={y(0)} />
        </svg>
        {activeDay ? (
          <ChartTooltip
            day={activeDay}
            left={((PLOT.left + (activeIndex + 0.5) * slot) / WIDTH) * 100}
            top={(Math.max(y(activeDay.totalCents), PLOT.top + 30) / HEIGHT) * 100}
          />
        ) : null}
      </div>
    </figure>
  );
}
