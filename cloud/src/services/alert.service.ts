import type { Alert } from '@deposito/protocol';
import type { Logger } from 'pino';
import { AppError } from '../errors';
import type { AdminActivityLog } from './admin-activity.service';
import type { AdminIdentity } from './auth.service';
import type { Clock } from '../clock';
import type { Mailer } from '../mail/mailer';
import { html } from '../payments/html';
import type { AlertRecord, NewAlert } from '../store/alert.repository';
import type { Store } from '../store/store';
import type { LockerControl } from './locker-control';
import type { SettingsService } from './settings.service';

/**
 * What operators are alerted of (issue 17). The first two last while their cause does and resolve
 * by themselves; the others are events an operator must look at once, raised already resolved so
 * acknowledging them closes them.
 */
export const ALERT_KINDS = {
  bridgeOffline: 'bridge_offline',
  doorOpen: 'door_open',
  commandFailed: 'command_failed',
  pinNotDelivered: 'pin_not_delivered',
  paymentToCheck: 'payment_to_check',
  totemUnreachable: 'totem_unreachable',
  emailNotSent: 'email_not_sent',
  duplicateBridge: 'duplicate_bridge',
} as const;

/** The operators' log entries that become alerts, by their type (bridge hub, payments). */
const LOG_ALERTS: ReadonlyArray<{ type: string; kind: string; title: string }> = [
  { type: 'bridge/pin_not_programmed', kind: ALERT_KINDS.pinNotDelivered, title: 'PIN non consegnato' },
  { type: 'payment', kind: ALERT_KINDS.paymentToCheck, title: 'Pagamento da verificare' },
  // The kiosk system did not answer the takings (takings/promotec-client.ts).
  { type: 'promotec', kind: ALERT_KINDS.totemUnreachable, title: 'Sistema totem non raggiungibile' },
  // A visitor's booking e-mail failed five times (still retried).
  { type: 'email', kind: ALERT_KINDS.emailNotSent, title: 'E-mail al cliente non inviata' },
  // A second bridge with a site's token was refused (close 4409); the hub logs one entry per burst.
  {
    type: 'bridge/duplicate_token',
    kind: ALERT_KINDS.duplicateBridge,
    title: 'Due bridge con lo stesso token',
  },
];

/** How far back events (failed commands, log entries) are looked for: a cloud down a day still tells. */
const EVENT_WINDOW_MS = 24 * 3600_000;
/** At most this many events of each source per pass. */
const EVENT_BATCH = 200;
/** How often every process looks (several at once raise each alert once: the store sees to it). */
export const ALERT_INTERVAL_MS = 30_000;

const COMMAND_WORDS: Record<string, string> = {
  open: 'Apri',
  inhibit: 'Disattiva',
  unbook: 'Attiva',
  book: 'PIN',
  getState: 'stato',
  history: 'storico',
};

export interface AlertServiceDeps {
  store: Store;
  clock: Clock;
  logger: Logger;
  settings: SettingsService;
  /** Each site's bridge as the hub sees it. */
  lockerControl: Pick<LockerControl, 'siteStatus'>;
  /** The operators' e-mail (the app's mailer). */
  mailer: () => Mailer | null;
}

/** The most alerts the dashboard lists. */
const OPEN_ALERTS_SHOWN = 200;

function toWire(alert: AlertRecord): Alert {
  return {
    id: alert.id,
    kind: alert.kind,
    locationKey: alert.locationKey,
    lockerId: alert.lockerId,
    message: alert.message,
    raisedAt: alert.raisedAt.toISOString(),
    resolvedAt: alert.resolvedAt?.toISOString() ?? null,
    acknowledgedAt: alert.acknowledgedAt?.toISOString() ?? null,
    acknowledgedBy: alert.acknowledgedBy,
  };
}

/** "1 minuto", "5 minuti". */
const minutesText = (minutes: number) => `${minutes} ${minutes === 1 ? 'minuto' : 'minuti'}`;
const minutesSince = (then: Date, now: Date) => Math.floor((now.getTime() - then.getTime()) / 60_000);

/** Looks for what operators must know, raises each alert once, resolves those whose cause went away, and e-mails the new ones. */
export class AlertService {
  constructor(private readonly deps: AlertServiceDeps) {}

  /** What operators still have to see, after a pass so the dashboard is never behind. */
  async current(): Promise<Alert[]> {
    await this.evaluate();
    return (await this.deps.store.alerts.open(OPEN_ALERTS_SHOWN)).map(toWire);
  }

  /** An operator has seen it (recorded in the operators' log); `route/not_found` when not open. */
  async acknowledge(actor: AdminIdentity, id: number, activity: AdminActivityLog): Promise<void> {
    const open = (await this.deps.store.alerts.open(OPEN_ALERTS_SHOWN)).find((alert) => alert.id === id);
    if (!open || !(await this.deps.store.alerts.acknowledge(id, actor.email, this.deps.clock.now()))) {
      throw new AppError('route/not_found', `No open alert ${id}`);
    }
    await activity.record(actor, 'admin/alert_acknowledged', `Presa visione dell'allarme: ${open.message}`, {
      locationKey: open.locationKey,
      lockerId: open.lockerId,
    });
  }

  /** One pass; answers the alerts it raised. */
  async evaluate(): Promise<AlertRecord[]> {
    const now = this.deps.clock.now();
    // An event (a failed command, a log entry) is alerted once, even after it was acknowledged.
    const events = [...(await this.failedCommands(now)), ...(await this.logEntries(now))];
    const known = await this.deps.store.alerts.known(events.map((event) => event.subject));
    const candidates = [
      ...(await this.bridgesAndDoors(now)),
      ...events.filter((event) => !known.has(event.subject)),
    ];
    const raised: AlertRecord[] = [];
    for (const alert of candidates) {
      const record = await this.deps.store.alerts.raise(alert);
      if (!record) continue;
      if (alert.resolvedAt) await this.deps.store.alerts.resolve([record.subject], alert.resolvedAt);
      raised.push(record);
    }
    if (raised.length > 0) await this.notify(raised);
    return raised;
  }

  /** Offline bridges and open doors now; those that came back or closed are resolved. */
  private async bridgesAndDoors(now: Date): Promise<Array<NewAlert & { resolvedAt?: Date }>> {
    const { store, settings, lockerControl } = this.deps;
    const system = await settings.system();
    const alerts: Array<NewAlert & { resolvedAt?: Date }> = [];
    /** The lasting alerts whose cause is still there; the others are resolved. */
    const ongoing = new Set<string>();
    for (const location of await store.locations.list()) {
      const issuedAt = await store.bridge.tokenIssuedAt(location.key);
      if (!issuedAt) continue;
      const subject = `${ALERT_KINDS.bridgeOffline}:${location.key}`;
      const status = await lockerControl.siteStatus(location.key);
      // Never heard from since its token was issued: a site box not installed, or not coming up.
      const since = status.lastSeenAt ?? issuedAt;
      const minutes = minutesSince(since, now);
      if (!status.online && minutes >= system.ALERT_BRIDGE_OFFLINE_MINUTES) {
        alerts.push({
          kind: ALERT_KINDS.bridgeOffline,
          subject,
          locationKey: location.key,
          lockerId: null,
          message: status.lastSeenAt
            ? `Il bridge di ${location.name} è offline da ${minutesText(minutes)}: i comandi ai locker e i PIN non arrivano.`
            : `Il bridge di ${location.name} non si è mai collegato (token emesso ${minutesText(minutes)} fa): i comandi ai locker e i PIN non arrivano.`,
          raisedAt: now,
        });
        ongoing.add(subject);
      }
      const open = (await store.bridge.lockerStates(location.key)).filter((state) => state.doorOpen);
      const openedAt = await store.bridge.doorsOpenedAt(
        location.key,
        open.map((state) => state.lockerId),
      );
      for (const state of open) {
        const since = openedAt.get(state.lockerId) ?? state.observedAt;
        const minutes = minutesSince(since, now);
        if (minutes < system.ALERT_DOOR_OPEN_MINUTES) continue;
        const doorSubject = `${ALERT_KINDS.doorOpen}:${location.key}:${state.lockerId}`;
        alerts.push({
          kind: ALERT_KINDS.doorOpen,
          subject: doorSubject,
          locationKey: location.key,
          lockerId: state.lockerId,
          message: `Lo sportello del locker ${state.lockerId} di ${location.name} è aperto da ${minutesText(minutes)}.`,
          raisedAt: now,
        });
        ongoing.add(doorSubject);
      }
    }
    const lasting = [
      ...(await store.alerts.openSubjects(ALERT_KINDS.bridgeOffline)),
      ...(await store.alerts.openSubjects(ALERT_KINDS.doorOpen)),
    ];
    await store.alerts.resolve(
      lasting.filter((subject) => !ongoing.has(subject)),
      now,
    );
    return alerts;
  }

  private async failedCommands(now: Date): Promise<Array<NewAlert & { resolvedAt: Date }>> {
    const since = new Date(now.getTime() - EVENT_WINDOW_MS);
    const commands = await this.deps.store.bridge.failedCommandsSince(since, EVENT_BATCH);
    return commands.map((command) => {
      const what = COMMAND_WORDS[command.op] ?? command.op;
      const where = command.lockerId === null ? '' : ` sul locker ${command.lockerId}`;
      const why = command.error?.message ? `: ${command.error.message}` : '';
      return {
        kind: ALERT_KINDS.commandFailed,
        subject: `command:${command.id}`,
        locationKey: command.locationKey,
        lockerId: command.lockerId,
        message: `Comando ${what}${where} ${command.status === 'expired' ? 'scaduto senza essere eseguito' : 'non riuscito'}${why}`,
        raisedAt: now,
        resolvedAt: now,
      };
    });
  }

  private async logEntries(now: Date): Promise<Array<NewAlert & { resolvedAt: Date }>> {
    const from = new Date(now.getTime() - EVENT_WINDOW_MS);
    const alerts: Array<NewAlert & { resolvedAt: Date }> = [];
    for (const source of LOG_ALERTS) {
      const entries = await this.deps.store.errorLogArchive.page({ type: source.type, from }, EVENT_BATCH);
      for (const entry of entries) {
        alerts.push({
          kind: source.kind,
          subject: `log:${entry.id}`,
          locationKey: entry.locationKey,
          lockerId: entry.lockerId,
          message: `${source.title}: ${entry.message}`.slice(0, 1000),
          raisedAt: now,
          resolvedAt: now,
        });
      }
    }
    return alerts;
  }

  /**
   * One e-mail to each operator listing the new alerts it may act on: an administrator all of them,
   * a site operator or technician those of its sites (roles). A failure is logged; the alerts stand.
   */
  private async notify(alerts: readonly AlertRecord[]): Promise<void> {
    const mailer = this.deps.mailer();
    if (!mailer) return;
    for (const operator of await this.deps.store.adminUsers.list()) {
      const sites = operator.sites;
      const theirs = sites
        ? alerts.filter((alert) => alert.locationKey !== null && sites.includes(alert.locationKey))
        : alerts;
      if (theirs.length === 0) continue;
      try {
        await mailer.send({ to: operator.email, ...alertMail(theirs) });
      } catch (error) {
        this.deps.logger.error({ err: error, to: operator.email }, 'alert e-mail not sent');
      }
    }
  }
}

/** The e-mail of some alerts, in Italian like the admin area. */
function alertMail(alerts: readonly AlertRecord[]) {
  const subject =
    alerts.length === 1
      ? `Deposito – allarme: ${alerts[0]!.message}`
      : `Deposito – ${alerts.length} nuovi allarmi`;
  const lines = alerts.map((alert) => `• ${alert.message}`);
  const body = html`<!doctype html>
    <html lang="it">
      <body>
        <ul>
          ${alerts.map((alert) => html`<li>${alert.message}</li>`)}
        </ul>
        <p>Vedi e prendi visione degli allarmi nella dashboard di /admin.</p>
      </body>
    </html>`;
  return {
    subject: subject.slice(0, 200),
    text: [...lines, '', 'Vedi e prendi visione degli allarmi nella dashboard di /admin.'].join('\n'),
    html: body.value,
    headers: { 'X-Deposito-Alerts': alerts.map((alert) => alert.id).join(',') },
  };
}
