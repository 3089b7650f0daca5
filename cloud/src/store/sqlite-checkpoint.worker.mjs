// The thread of SqliteCheckpointer (sqlite-checkpointer.ts): its own connection to the store's file,
// copying the write-ahead log into the file (every `intervalMs`, sooner while it is behind). Plain
// JavaScript, so it runs the same under tsx, the test runner and a built cloud without a TypeScript
// loader.
import { parentPort, workerData } from 'node:worker_threads';
import Database from 'better-sqlite3';

/** @type {{ filename: string, intervalMs: number, catchUpMs: number, state: Int32Array, states: { STOPPING: number, STOPPED: number } }} */
const { filename, intervalMs, catchUpMs, state, states } = workerData;

function stopped() {
  Atomics.store(state, 0, states.STOPPED);
  Atomics.notify(state, 0);
}

// Asked to stop before it had started: it never opens the file.
if (Atomics.load(state, 0) === states.STOPPING) {
  stopped();
} else {
  const db = new Database(filename);
  // PASSIVE never waits for the writer or the readers: it copies what no reader still needs.
  const checkpoint = db.prepare('PRAGMA wal_checkpoint(PASSIVE)');
  let timer = null;
  const stop = () => {
    clearTimeout(timer);
    db.close();
    stopped();
    parentPort?.close();
  };
  // A pass copies what was committed before it began. While the log still has frames to copy it runs
  // again soon, so that the log is whole in the file between two commits now and then: SQLite writes
  // the log from its start again only then. A failed checkpoint (the disk, say) ends the thread; the
  // main connection then checkpoints itself.
  const pass = () => {
    let behind;
    try {
      const [{ log, checkpointed }] = checkpoint.all();
      behind = checkpointed < log;
    } catch (error) {
      stop();
      throw error;
    }
    timer = setTimeout(pass, behind ? catchUpMs : intervalMs);
  };
  timer = setTimeout(pass, intervalMs);
  // Stopping is asked for by a message, posted after `state` is set to STOPPING.
  parentPort?.once('message', stop);
}
