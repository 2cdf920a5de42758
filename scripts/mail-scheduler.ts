// `npm run mail:scheduler`: the weekly summary's schedule as its own process, for when the web
// servers run with MAIL_SCHEDULER=off (docs/OPERATIONS.md "Weekly mail"). Run exactly one of these.
import { readConfig } from '../sync-server/src/config.js';
import { startMailScheduler } from '../sync-server/src/mail/scheduler.js';
import { createMailer } from '../sync-server/src/mail/setup.js';
import { openStore } from '../sync-server/src/backend.js';

const config = readConfig();
const store = await openStore(config);
const { deps, schedule } = createMailer({ config, store, port: config.port });
const scheduler = startMailScheduler({ ...deps, schedule });

async function stop() {
  await scheduler.stop();
  deps.transport.close();
  await store.close();
  process.exit(0);
}
process.on('SIGINT', () => void stop());
process.on('SIGTERM', () => void stop());
