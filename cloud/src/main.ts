import { pino } from 'pino';
import { createApp } from './app';
import {
  installDemoBridgeTokens,
  revokeLegacyDemoBridgeTokens,
  writeDemoBridgeTokens,
} from './bridge-hub/bridge-token';
import { EnvError, loadDotEnvFile, loadEnv } from './env';
import { processLogRing } from './services/admin-process-log';
import { logRedaction } from './observability/log-redaction';
import { seedDemoData } from './services/demo-seed.service';
import { openStore } from './store/store';
import { ensureFirstAdmin } from './routes/admin/admin.routes';

// The cloud process: read the environment, open (and migrate) the store, serve, stop cleanly.

const SHUTDOWN_TIMEOUT_MS = 10_000;

async function main(): Promise<void> {
  let env;
  try {
    loadDotEnvFile();
    env = loadEnv();
  } catch (error) {
    if (error instanceof EnvError) {
      process.stderr.write(`${error.message}\n`);
      process.exit(1);
    }
    throw error;
  }
  // Every line also goes to the in-memory ring the admin "PM2 Logs" screen reads.
  const logger = pino(
    {
      level: env.logLevel,
      // Admin tokens, cookies, PINs and whole booking ids never reach a log line (the process log
      // is shown in the admin area; log-redaction.ts).
      redact: logRedaction,
    },
    pino.multistream([
      { level: 'trace', stream: process.stdout },
      { level: 'trace', stream: processLogRing },
    ]),
  );
  if (env.payment.provider === 'sandbox' && !env.demo) {
    // Chosen explicitly (refinePaymentEnv), but worth shouting: no money is collected.
    logger.warn(
      'PAYMENT_PROVIDER=sandbox outside demo mode: the TEST payment page takes test cards only and NO MONEY IS COLLECTED; set PAYMENT_PROVIDER=axerve to take real payments',
    );
  }
  if (env.mail.transport.kind === 'outbox' && !env.demo) {
    // Visitors' confirmations (PIN, receipt, their booking's page) would stay on this machine.
    logger.warn(
      { directory: env.mail.transport.directory },
      'SMTP_URL unset outside demo mode: customer e-mails (confirmations with the PIN and the receipt) are written to this folder and NOT SENT; set SMTP_URL to send them',
    );
  }
  const store = await openStore(env.database);
  const cloud = createApp({ env, store, logger });
  if (env.demo && (await seedDemoData(cloud.context, env.demoSitePort))) logger.info('demo data seeded');
  const revoked = await revokeLegacyDemoBridgeTokens(store);
  if (revoked.length > 0) {
    logger.error(
      { locations: revoked },
      'REMOVED the old derivable demo bridge tokens of these locations: anyone could compute them. ' +
        'Issue each bridge a real token (POST /api/admin/locations/<key>/bridge-token as an administrator) and give it to edge-bridge init.',
    );
  }
  if (env.demo) {
    // Before listening, so the start script's bridges are never refused.
    const tokens = await installDemoBridgeTokens(store, new Date());
    if (env.demoBridgeTokensDir) writeDemoBridgeTokens(env.demoBridgeTokensDir, tokens);
    logger.info(
      { locations: tokens.map((t) => t.locationKey), folder: env.demoBridgeTokensDir },
      'random demo bridge tokens installed for the locations that had none',
    );
  }
  await ensureFirstAdmin(cloud.context);
  const { url } = await cloud.start();
  logger.info({ url, publicUrl: env.publicUrl, database: env.database.dialect }, 'cloud listening');

  let stopping = false;
  const shutdown = async (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'shutting down');
    // SIGTERM (a restart, the balancer in front) drains first; Ctrl-C stops at once.
    const drainMs = signal === 'SIGTERM' ? env.drainMs : 0;
    const force = setTimeout(() => {
      logger.error('shutdown timed out');
      process.exit(1);
    }, drainMs + SHUTDOWN_TIMEOUT_MS);
    force.unref();
    try {
      await cloud.stop({ drainMs });
      await store.close();
      process.exit(0);
    } catch (error) {
      logger.error({ err: error }, 'shutdown failed');
      process.exit(1);
    }
  };
  process.on('SIGTERM', (signal) => void shutdown(signal));
  process.on('SIGINT', (signal) => void shutdown(signal));
}

main().catch((error: unknown) => {
  process.stderr.write(
    `cloud failed to start: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
  );
  process.exit(1);
});
