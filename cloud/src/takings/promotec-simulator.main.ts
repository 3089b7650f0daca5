// Runs one simulated Promotec kiosk system for the demo:
//   node --import tsx cloud/src/takings/promotec-simulator.main.ts --location roma --port 11001
import { parseArgs } from 'node:util';
import { PromotecSimulator } from './promotec-simulator';

const { values } = parseArgs({
  options: {
    location: { type: 'string', default: 'roma' },
    zone: { type: 'string', default: 'Europe/Rome' },
    host: { type: 'string', default: '127.0.0.1' },
    port: { type: 'string', default: '11001' },
  },
});

const simulator = await PromotecSimulator.start({
  locationKey: values.location,
  zone: values.zone,
  host: values.host,
  port: Number(values.port),
});
console.log(
  `Promotec simulator for ${values.location} on http://${simulator.host}:${simulator.port}/proceeds?month=yyyy-MM`,
);

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => void simulator.close().then(() => process.exit(0)));
}
