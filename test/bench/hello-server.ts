/** The baseline: a bare express app answering GET /hello with a small JSON, run as a child of the bench. */
import express from 'express';
import type { AddressInfo } from 'node:net';

const app = express();
app.disable('x-powered-by');
app.get('/hello', (_req, res) => void res.json({ hello: 'world' }));

const server = app.listen(0, '127.0.0.1', () => {
  process.send?.({ port: (server.address() as AddressInfo).port });
});
const stop = () => server.close(() => process.exit(0));
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
process.on('disconnect', stop);
