// `npm start`: builds the PWA and the server (scripts/build-server.ts), starts the Firebase Auth
// emulator and the compiled server (`node build/server/main.js`, no TypeScript compiled at start)
// on loopback, and stops both on one Ctrl-C. Env: PORT (8080), DATA_DIR (data/),
// AUTH_EMULATOR_PORT (9099), SKIP_BUILD=1 to reuse an existing dist/ (and build/server/ unless
// it is missing or older than a source file), LOG_REQUESTS=1 to print a line per request (terminal-log.ts). Unless SEED_DEMO=false, the emulator gets a demo
// moderator and a demo admin (scripts/roles.ts DEMO_STAFF; their e-mail and password are printed),
// and `npm run users:role` reaches the emulator with the FIREBASE_AUTH_EMULATOR_HOST printed.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { PROJECT_ID, startAuthEmulator } from './auth-emulator.js';
import { buildServer, DEFAULT_OUT_DIR, newestSource } from './build-server.js';
import { adminAuth, seedDemoStaff } from './roles.js';
import { logsRequests, terminalLog } from './terminal-log.js';

const port = process.env.PORT ?? '8080';
const hasApp = existsSync('vite.config.ts') && existsSync('app/index.html');

if (hasApp && process.env.SKIP_BUILD !== '1') {
  console.log('Building the app…');
  const build = spawnSync(process.execPath, ['node_modules/vite/bin/vite.js', 'build', '--logLevel', 'warn'], { stdio: 'inherit' });
  if (build.status !== 0) process.exit(build.status ?? 1);
}

const serverEntry = join(DEFAULT_OUT_DIR, 'main.js');
if (process.env.SKIP_BUILD !== '1' || !existsSync(serverEntry) || statSync(serverEntry).mtimeMs < newestSource()) {
  console.log('Building the server…');
  await buildServer();
}

console.log('Starting the Firebase Auth emulator…');
const emulator = await startAuthEmulator({ port: Number(process.env.AUTH_EMULATOR_PORT ?? 9099) });
console.log(`Auth emulator on http://${emulator.host}`);
if (process.env.SEED_DEMO !== 'false') {
  process.env.FIREBASE_AUTH_EMULATOR_HOST = emulator.host; // firebase-admin reads it from the environment
  for (const line of await seedDemoStaff(adminAuth({ FIREBASE_AUTH_EMULATOR_HOST: emulator.host, FIREBASE_PROJECT_ID: PROJECT_ID }))) {
    console.log(line);
  }
}
console.log(`Roles: FIREBASE_AUTH_EMULATOR_HOST=${emulator.host} npm run users:role -- <email or uid> <member|moderator|admin>`);

const server: ChildProcess = spawn(process.execPath, ['--enable-source-maps', serverEntry], {
  stdio: ['inherit', 'pipe', 'inherit'],
  env: { ...process.env, PORT: port, FIREBASE_AUTH_EMULATOR_HOST: emulator.host },
});
// The server logs JSON lines (sync-server/src/observe/logger.ts); here, for a person at a terminal,
// they are printed readably, one line each, and answered requests only with LOG_REQUESTS=1
// (terminal-log.ts). Only here: production output stays JSON for a log shipper.
const requests = logsRequests(process.env);
server.stdout!.pipe(terminalLog({ requests, colorize: Boolean(process.stdout.isTTY) }));
if (!requests) console.log('Requests are not logged here (LOG_REQUESTS=1 npm start shows one line each; failures always show).');

let stopping = false;
async function stop(code = 0) {
  if (stopping) return;
  stopping = true;
  server.kill('SIGTERM');
  await emulator.stop();
  process.exit(code);
}
server.on('exit', (code) => void stop(code ?? 0));
process.on('SIGINT', () => void stop(0));
process.on('SIGTERM', () => void stop(0));
