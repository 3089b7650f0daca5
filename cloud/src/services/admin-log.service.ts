import type { ErrorLogEntry as ErrorLogEntryWire, ProcessLogEntry } from '@deposito/protocol';
import type { ErrorLogFilter } from '../store/error-log-archive.repository';
import type { ErrorLogEntry } from '../store/error-log.repository';
import type { Store } from '../store/store';
import type { ProcessLogRing } from './admin-process-log';

/** Entries "Log Errori" shows. */
const RECENT_ERRORS = 200;

function toWire(entry: ErrorLogEntry): ErrorLogEntryWire {
  return {
    id: entry.id,
    timestamp: entry.at.toISOString(),
    type: entry.type,
    locationKey: entry.locationKey,
    lockerId: entry.lockerId,
    message: entry.message.slice(0, 4000),
  };
}

/** Log Errori, Archivio and the process log. */
export class AdminLogService {
  constructor(
    private readonly store: Store,
    private readonly processLog: ProcessLogRing,
  ) {}

  async recentErrors(): Promise<ErrorLogEntryWire[]> {
    return (await this.store.errorLog.recent(RECENT_ERRORS)).map(toWire);
  }

  async archive(filter: ErrorLogFilter, limit: number): Promise<ErrorLogEntryWire[]> {
    return (await this.store.errorLogArchive.page(filter, limit)).map(toWire);
  }

  processLines(): ProcessLogEntry[] {
    return this.processLog.entries();
  }
}
