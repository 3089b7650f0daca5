import {
  DEFAULT_TAKINGS_SORT_ORDER,
  formatEuros,
  monthlyTakingsFromData,
  monthOf,
  takingsRoutes,
  type DayTakings,
  type LocationTakings,
  type MonthlyTakingsReport,
  type TakingsLocationConnection,
  type TakingsSortOrder,
} from '@deposito/protocol';
import { useQuery } from '@tanstack/react-query';
import { useId, useMemo, useRef, useState } from 'react';
import { csvEuros, downloadCsv, toCsv, type CsvCell } from '../csv';
import { useClock } from '../../components/clock';
import { adminCall, errorText } from '../admin-api';
import { Card, Empty, Loading, PageHeader } from '../components/ui';
import { ConnectionTestPanel } from './ConnectionTestPanel';
import { DailyTakingsList, TakingsSortSelect } from './DailyTakingsList';
import { TakingsChart } from './TakingsChart';
import { ExcludedTestBookingsNote, TotemMissingWarning } from './TakingsCaveats';
import { totemMissingText } from './takings-caveat-text';
import { COMPANY_LEGAL_NAME, TAKINGS_LOAD_TIMEOUT_MS, TAKINGS_PAGE_ZONE } from './takings-config';
import './takings.css';
import { useAdminRole } from '../admin-role';
import { Options } from '../../components/Options';

/** Days of several locations added up per date, for the all-locations chart. */
/**
 * The month's takings for a spreadsheet: one line per location and day with takings (online net of
 * refunds, totem, total, and the refunds made that day), then each location's month and the month
 * of all of them.
 */
export function takingsCsv(report: MonthlyTakingsReport): string {
  const rows: CsvCell[][] = [];
  for (const location of report.locations) {
    for (const day of location.days) {
      rows.push([
        location.name,
        day.label,
        day.weekday,
        csvEuros(day.onlineCents),
        csvEuros(day.totemCents),
        csvEuros(day.totalCents),
        csvEuros(day.refundCents),
      ]);
    }
    rows.push([
      location.name,
      `Totale ${report.month}`,
      location.totemMissing ? 'totem non letti: incompleto' : '',
      csvEuros(location.onlineCents),
      csvEuros(location.totemCents),
      csvEuros(location.totalCents),
      csvEuros(location.refundCents),
    ]);
  }
  rows.push([
    'Tutte le location',
    `Totale ${report.month}`,
    report.totemMissing.length > 0 ? 'totem non letti: incompleto' : '',
    csvEuros(report.totals.onlineCents),
    csvEuros(report.totals.totemCents),
    csvEuros(report.totals.totalCents),
    csvEuros(report.totals.refundCents),
  ]);
  return toCsv(
    [
      'Location',
      'Giorno',
      'Giorno della settimana',
      'Online (€)',
      'Totem (€)',
      'Totale (€)',
      'Rimborsi, già sottratti (€)',
    ],
    rows,
  );
}

function combinedDays(report: MonthlyTakingsReport): DayTakings[] {
  const byDate = new Map<string, DayTakings>();
  for (const day of report.locations.flatMap((location) => location.days)) {
    const sum = byDate.get(day.date);
    byDate.set(
      day.date,
      sum
        ? {
            ...sum,
            onlineCents: sum.onlineCents + day.onlineCents,
            refundCents: sum.refundCents + day.refundCents,
            totemCents: sum.totemCents + day.totemCents,
            totalCents: sum.totalCents + day.totalCents,
          }
        : { ...day },
    );
  }
  return [...byDate.values()];
}

function SummaryCards({ report, all }: { report: MonthlyTakingsReport; all: boolean }) {
  // A kiosk that could not be read leaves the totem and total figures short: they say so.
  const incomplete = report.totemMissing.length > 0 ? 'incompleto' : undefined;
  const cards: Array<{ label: string; value: string; tone: string; note?: string }> = [
    { label: 'Incassi Online', value: formatEuros(report.totals.onlineCents), tone: 'online' },
    {
      label: 'Incassi Totem',
      value: formatEuros(report.totals.totemCents),
      tone: 'totem',
      note: incomplete,
    },
    {
      label: all ? 'Totale Generale' : 'Totale Sede',
      value: formatEuros(report.totals.totalCents),
      tone: 'total',
      note: incomplete,
    },
    // Refunds made in the month are already off the online and total figures: this says how much.
    ...(report.totals.refundCents > 0
      ? [
          {
            label: 'Rimborsi',
            value: `− ${formatEuros(report.totals.refundCents)}`,
            tone: 'refunds',
            note: 'già sottratti',
          },
        ]
      : []),
    ...(all
      ? [
          {
            label: 'Location Attive',
            value: `${report.activeLocations} / ${report.locations.length}`,
            tone: 'locations',
          },
        ]
      : []),
  ];
  return (
    <ul className="adm-tk-cards" aria-label="Riepilogo del mese">
      {cards.map((card) => (
        <li
          key={card.label}
          className={`adm-tk-card adm-tk-card-${card.tone}${card.note ? ' adm-tk-card-incomplete' : ''}`}
        >
          <span className="adm-tk-card-label">{card.label}</span>
          <span className="adm-tk-card-value">{card.value}</span>
          {card.note ? <span className="adm-tk-card-note">{card.note}</span> : null}
        </li>
      ))}
    </ul>
  );
}

function LocationAccordion({
  locations,
  order,
  showDetails,
}: {
  locations: readonly LocationTakings[];
  order: TakingsSortOrder;
  showDetails: boolean;
}) {
  const [open, setOpen] = useState<ReadonlySet<string>>(new Set());
  const toggle = (key: string) =>
    setOpen((current) => {
      const next = new Set(current);
      if (next.has(key)) next.delete(key);
      else next.add(key);
      return next;
    });
  return (
    <div className="adm-tk-accordion">
      {locations.map((location) => {
        const expanded = open.has(location.key);
        const bodyId = `adm-tk-location-${location.key}`;
        return (
          <section key={location.key} className={`adm-tk-location${expanded ? ' adm-tk-location-open' : ''}`}>
            <h3 className="adm-tk-location-heading">
              <button
                type="button"
                className="adm-tk-location-head"
                aria-expanded={expanded}
                aria-controls={bodyId}
                onClick={() => toggle(location.key)}
              >
                <span className="adm-tk-chevron" aria-hidden="true">
                  {expanded ? '▾' : '▸'}
                </span>
                <span className="adm-tk-location-name">{location.name}</span>
                <span className="adm-tk-location-meta">
                  {location.daysWithTakings === 1 ? '1 giorno' : `${location.daysWithTakings} giorni`}
                  {location.latest ? ` · Ultimo: ${location.latest.label}` : ''}
                  {location.totemMissing ? (
                    <span className="adm-tk-location-missing"> · Totem non disponibile</span>
                  ) : null}
                </span>
                <span className="adm-tk-location-total">
                  {formatEuros(location.totalCents)}
                  {location.totemMissing ? <span className="adm-tk-card-note"> incompleto</span> : null}
                </span>
              </button>
            </h3>
            {expanded ? (
              <div id={bodyId} className="adm-tk-location-body">
                {location.totemMissing ? (
                  <p className="adm-tk-location-warning">{totemMissingText(location.name)}.</p>
                ) : null}
                <ExcludedTestBookingsNote tests={location.testBookings} />
                {location.days.length > 0 ? (
                  <DailyTakingsList
                    days={location.days}
                    order={order}
                    showDetails={showDetails}
                    label={`Incassi giornalieri di ${location.name}`}
                  />
                ) : (
                  <p className="adm-muted adm-small">Nessun incasso per questa location nel mese.</p>
                )}
              </div>
            ) : null}
          </section>
        );
      })}
    </div>
  );
}

/** /admin/incassi: the month's online and totem takings per location and day, with PDF export. */
/** The month and location pickers and what can be done with the month shown. */
/** What the filter bar chooses: the month, and one location or "all". */
interface TakingsChoice {
  month: string;
  locationKey: string;
  onMonth: (month: string) => void;
  onLocation: (key: string) => void;
}

function TakingsFilterBar({
  choice: { month, locationKey, onMonth, onLocation },
  locations,
  takings: { loading, hasData, shown, reload },
}: {
  choice: TakingsChoice;
  locations: readonly TakingsLocationConnection[];
  takings: ShownTakings;
}) {
  const role = useAdminRole();
  const now = useClock();
  const fieldId = useId();
  const [exporting, setExporting] = useState(false);
  const onCsv = () => shown && downloadCsv(`incassi-${shown.month}.csv`, takingsCsv(shown));
  const onPdf = () => {
    if (!shown) return;
    setExporting(true);
    void exportPdf(shown, now()).finally(() => setExporting(false));
  };
  return (
    <div className="adm-tk-filterbar">
      <div className="adm-field">
        <label className="adm-field-label" htmlFor={`${fieldId}-month`}>
          Mese
        </label>
        <input
          id={`${fieldId}-month`}
          className="adm-input"
          type="month"
          value={month}
          onChange={(event) => onMonth(event.target.value)}
        />
      </div>
      <div className="adm-field">
        <label className="adm-field-label" htmlFor={`${fieldId}-location`}>
          Location
        </label>
        <select
          id={`${fieldId}-location`}
          className="adm-input"
          value={locationKey}
          onChange={(event) => onLocation(event.target.value)}
        >
          <option value="" disabled>
            Seleziona location
          </option>
          {/* Every site at once is an administrator's (a site operator's are its own). */}
          {role === 'administrator' ? <option value="all">Tutte le location</option> : null}
          <Options items={locations} value={(location) => location.key} label={(location) => location.name} />
        </select>
      </div>
      <button
        type="button"
        className="adm-btn"
        onClick={reload}
        disabled={!locationKey || loading}
        title="Rilegge gli incassi online e i totem"
      >
        Aggiorna
      </button>
      <button
        type="button"
        className="adm-btn adm-btn-secondary"
        onClick={onCsv}
        disabled={loading || !hasData}
      >
        Esporta CSV
      </button>
      <button
        type="button"
        className="adm-btn adm-btn-primary adm-tk-export"
        onClick={onPdf}
        disabled={loading || !hasData || exporting}
      >
        {exporting ? 'Generazione PDF…' : 'Esporta PDF'}
      </button>
    </div>
  );
}

/** A month's report with takings: cards, chart, the daily list or the locations' accordion, the total. */
function TakingsReportView({
  report,
  all,
  scope,
  view,
}: {
  report: MonthlyTakingsReport;
  all: boolean;
  scope: string;
  /** The list's order and detail, kept by the page across months and reloads. */
  view: ReturnType<typeof useListView>;
}) {
  const { order, setOrder, showDetails, setShowDetails } = view;
  const chartDays = useMemo(
    () => (all ? combinedDays(report) : (report.locations[0]?.days ?? [])),
    [report, all],
  );
  return (
    <>
      <SummaryCards report={report} all={all} />
      <ExcludedTestBookingsNote tests={report.testBookings} />
      <div className="adm-tk-daily">
        <Card>
          <TakingsChart month={report.month} days={chartDays} scope={scope} />
          <div className="adm-tk-list-head">
            <h2>{all ? 'Incassi per location' : `Incassi giornalieri — ${scope}`}</h2>
            <div className="adm-tk-list-tools">
              <label className="adm-tk-details-toggle">
                <input
                  type="checkbox"
                  checked={showDetails}
                  onChange={(event) => setShowDetails(event.target.checked)}
                />
                Dettaglio online/totem
              </label>
              <TakingsSortSelect value={order} onChange={setOrder} />
            </div>
          </div>
          {all ? (
            <LocationAccordion locations={report.locations} order={order} showDetails={showDetails} />
          ) : (
            <DailyTakingsList
              days={report.locations[0]?.days ?? []}
              order={order}
              showDetails={showDetails}
              label={`Incassi giornalieri di ${scope}`}
            />
          )}
        </Card>
        <div
          className={`adm-tk-grand-total${report.totemMissing.length > 0 ? ' adm-tk-grand-total-incomplete' : ''}`}
        >
          <span>TOTALE GENERALE{report.totemMissing.length > 0 ? ' (incompleto)' : ''}</span>
          <strong>{formatEuros(report.totals.totalCents)}</strong>
        </div>
      </div>
    </>
  );
}

function useListView() {
  const [order, setOrder] = useState<TakingsSortOrder>(DEFAULT_TAKINGS_SORT_ORDER);
  const [showDetails, setShowDetails] = useState(true);
  return { order, setOrder, showDetails, setShowDetails };
}

/**
 * The month's takings of one location or all, as a query per month and location. "Aggiorna" and
 * "Riprova" read it again with `reload`, so the server asks the kiosks again instead of its cache.
 */
function useMonthlyTakings(
  month: string,
  locationKey: string,
  locations: readonly TakingsLocationConnection[],
) {
  const reloadNext = useRef(false);
  const query = useQuery({
    queryKey: ['takings', 'monthly', month, locationKey],
    queryFn: ({ signal }) => {
      const reload = reloadNext.current;
      reloadNext.current = false;
      return adminCall(takingsRoutes.monthly, {
        query: { month, location: locationKey, ...(reload ? { reload: '1' } : {}) },
        timeoutMs: TAKINGS_LOAD_TIMEOUT_MS,
        signal,
      });
    },
    enabled: Boolean(month && locationKey),
    // The server already waits for each kiosk and says which it could not read: "Riprova" is the operator's.
    retry: false,
  });
  const answer = query.data;
  const report = useMemo(() => {
    if (!answer) return null;
    const listed = locationKey === 'all' ? locations : locations.filter((l) => l.key === locationKey);
    return monthlyTakingsFromData({
      month: answer.month,
      locations: listed.map(({ key, name }) => ({ key, name })),
      data: answer.data,
      caveats: { totemMissing: answer.totemMissing, testBookings: answer.testBookings },
    });
  }, [answer, locationKey, locations]);
  const reload = () => {
    reloadNext.current = true;
    void query.refetch();
  };
  return { query, report, reload };
}

/**
 * The month's takings as the page shows them: nothing while they are read or after a failure,
 * whether they have any figure, and whose they are (`scope`, "Tutte le location" or the name).
 */
function useShownTakings(
  month: string,
  locationKey: string,
  locations: readonly TakingsLocationConnection[],
) {
  const { query, report, reload } = useMonthlyTakings(month, locationKey, locations);
  const loading = query.isFetching;
  const shown = loading || query.isError ? null : report;
  const hasData = shown !== null && shown.totals.totalCents > 0;
  const all = locationKey === 'all';
  const scope = all
    ? 'Tutte le location'
    : (locations.find((l) => l.key === locationKey)?.name ?? locationKey);
  return { locationKey, query, loading, shown, hasData, all, scope, reload };
}

type ShownTakings = ReturnType<typeof useShownTakings>;

async function exportPdf(report: MonthlyTakingsReport, generatedAt: Date) {
  try {
    // Loaded on first use: jspdf stays out of the admin area's first download.
    const { buildTakingsReportPdf, takingsReportFileName } = await import('./takings-report-pdf');
    buildTakingsReportPdf(report, { companyName: COMPANY_LEGAL_NAME, month: report.month, generatedAt }).save(
      takingsReportFileName(report.month),
    );
  } catch {
    window.alert('Errore durante la generazione del PDF');
  }
}

/** What the page shows for the month: a hint, loading, the error with Riprova, no takings, or the report. */
function TakingsBody({
  takings: { locationKey, query, shown, hasData, all, scope, reload },
  view,
}: {
  takings: ShownTakings;
  view: ReturnType<typeof useListView>;
}) {
  return !locationKey ? (
    <Card>
      <Empty>
        <strong className="adm-tk-empty-title">Seleziona una Location</strong>
        <span>Scegli una location o &quot;Tutte le location&quot; per vedere gli incassi del mese.</span>
      </Empty>
    </Card>
  ) : query.isFetching ? (
    <Card>
      <Loading text="Caricamento incassi online e totem..." />
    </Card>
  ) : query.isError ? (
    <div className="adm-tk-error" role="alert">
      <h2>Errore nel caricamento</h2>
      <p>{errorText(query.error, 'Errore nel caricamento dei dati degli incassi')}</p>
      <button type="button" className="adm-btn adm-btn-danger" onClick={reload}>
        Riprova
      </button>
    </div>
  ) : shown && !hasData ? (
    <>
      <TotemMissingWarning report={shown} onReload={reload} />
      <Card>
        <Empty>
          <strong className="adm-tk-empty-title">Nessun incasso trovato per il mese selezionato</strong>
        </Empty>
      </Card>
      <ExcludedTestBookingsNote tests={shown.testBookings} />
    </>
  ) : shown ? (
    <>
      <TotemMissingWarning report={shown} onReload={reload} />
      <TakingsReportView report={shown} all={all} scope={scope} view={view} />
    </>
  ) : null;
}

export function IncassiPage() {
  const now = useClock();
  const [locationKey, setLocationKey] = useState('');
  const locationsQuery = useQuery({
    queryKey: ['takings', 'locations'],
    queryFn: ({ signal }) => adminCall(takingsRoutes.locations, { signal }),
  });
  const locations = useMemo(() => locationsQuery.data ?? [], [locationsQuery.data]);
  const locationsError = locationsQuery.isError
    ? errorText(locationsQuery.error, 'Impossibile caricare le configurazioni location')
    : null;
  // Until the operator picks a month, it is the current month where the chosen location is.
  const [pickedMonth, setMonth] = useState<string | null>(null);
  const zone = locations.find((l) => l.key === locationKey)?.timezone ?? TAKINGS_PAGE_ZONE;
  const month = pickedMonth ?? monthOf(now(), zone);
  const takings = useShownTakings(month, locationKey, locations);
  const choice: TakingsChoice = { month, locationKey, onMonth: setMonth, onLocation: setLocationKey };
  const [testShown, setTestShown] = useState(false);
  const view = useListView();

  return (
    <div className="adm-tk-page">
      <PageHeader
        title="Incassi Mensili"
        subtitle="Incassi delle prenotazioni online e dei totem fisici, per location e per giorno"
        actions={
          <button
            type="button"
            className="adm-btn adm-btn-secondary"
            aria-expanded={testShown}
            onClick={() => setTestShown((open) => !open)}
          >
            {testShown ? 'Nascondi Test' : 'Test Connessioni'}
          </button>
        }
      />

      {testShown ? (
        locations.length > 0 ? (
          <ConnectionTestPanel locations={locations} />
        ) : (
          <Card>
            <Empty>{locationsError ?? 'Nessuna location configurata.'}</Empty>
          </Card>
        )
      ) : null}

      <Card className="adm-tk-filters">
        <TakingsFilterBar choice={choice} locations={locations} takings={takings} />
        {locationsError ? (
          <p className="adm-tk-inline-error" role="alert">
            {locationsError}
          </p>
        ) : null}
      </Card>

      <TakingsBody takings={takings} view={view} />

      <p className="adm-tk-footnote">
        <span aria-hidden="true">ℹ</span> Sono conteggiate come incassi online solo le prenotazioni con stato{' '}
        <strong>confirmed</strong> (confermata) o <strong>scheduled</strong> (programmata), una volta per
        transazione, al prezzo scontato, nel giorno di creazione; le prenotazioni di test create dagli
        operatori sono escluse. Gli incassi totem provengono dal sistema Promotec di ogni location.
      </p>
    </div>
  );
}
