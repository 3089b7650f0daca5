// The physical baseline for HTTP throughput: a bare Express route answering a fixed JSON body of
// the availability answer's shape and size, with nothing behind it. Prints `{"url": …}`.
import express from 'express';

const days = Object.fromEntries(
  Array.from({ length: 15 }, (_, i) => [
    `2026-06-${String(i + 1).padStart(2, '0')}`,
    { standard: 10 - (i % 3), large: 5 - (i % 2) },
  ]),
);
const app = express();
app.disable('x-powered-by');
app.get('/json', (_req, res) => {
  res.json(days);
});
const server = app.listen(0, '127.0.0.1', () => {
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  process.stdout.write(`${JSON.stringify({ url: `http://127.0.0.1:${port}` })}\n`);
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
