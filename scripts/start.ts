// `npm start`: builds the PWA, starts the Firebase Auth emulator and the server on
// loopback, and stops both on one Ctrl-C. Env: PORT (8080), DATA_DIR (data/),
// AUTH_EMULATOR_PORT (9099), SKIP_BUILD=1 to reuse an existing dist/.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { startAuthEmulator } from './auth-emulator.js';

const port = process.env.PORT ?? '8080';
const hasApp = existsSync('vite.config.ts') && existsSync('app/index.html');

if (hasApp && process.env.SKIP_BUILD !== '1') {
  console.log('Building the app…');
  const build = spawnSync(process.execPath, ['node_modules/vite/bin/vite.js', 'build', '--logLevel', 'warn'], { stdio: 'inherit' });
  if (build.status !== 0) process.exit(build.status ?? 1);
}

console.log('Starting the Firebase Auth emulator…');
const emulator = await startAuthEmulator({ port: Number(process.env.AUTH_EMULATOR_PORT ?? 9099) });
console.log(`Auth emulator on http://${emulator.host}`);

const server: ChildProcess = spawn(process.execPath, ['--import', 'tsx', 'sync-server/src/main.ts'], {
  stdio: 'inherit',
  env: { ...process.env, PORT: port, FIREBASE_AUTH_EMULATOR_HOST: emulator.host },
});

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
