/**
 * The benchmark's server: `dsync serve`'s app on a Redis store, with the activity record on or off (the product
 * always records; turning it off is for this comparison only). PORT, REDIS_URL, ACTIVITY=on|off, API_KEY.
 */
import { createServer } from 'node:http';
import { pino } from 'pino';
import { createApp } from '../../src/http/app.js';
import { createDsync } from '../../src/service.js';
import { RedisStore } from '../../src/store/redis.js';

const port = Number(process.env.PORT);
const logger = pino({ level: 'warn' });
const dsync = createDsync({
  store: new RedisStore(process.env.REDIS_URL!),
  externalUrl: `http://127.0.0.1:${port}`,
  logger,
  recordActivity: process.env.ACTIVITY !== 'off',
  webhook: { allowPrivate: true },
});
await dsync.store.ping();
const server = createServer(createApp({ dsync, apiKeys: [process.env.API_KEY!], logger }));
server.keepAliveTimeout = 65_000;
server.listen(port, '127.0.0.1');
dsync.start();
process.on('SIGTERM', () => {
  server.close();
  server.closeAllConnections();
  void dsync.close().then(() => process.exit(0));
});
