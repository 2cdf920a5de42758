// Vitest global setup of the lanes that need the real Firebase Auth emulator
// (server, store, e2e; see vitest.config.ts). Test files reach it through
// inject('authEmulatorHost') (see fixtures/auth.ts).
//
// Vitest runs the globalSetup of every project in the run, one project after the
// other, each through its own module runner (so a module-level variable here would
// be one per project). The emulator is therefore kept on globalThis of the Vitest
// process, counted: the first lane starts it, the others reuse it, the last
// teardown stops it. `npm test` starts one emulator, `npm run test:unit` none.
import type { TestProject } from 'vitest/node';
import { startAuthEmulator, type RunningEmulator } from '../scripts/auth-emulator.js';

declare module 'vitest' {
  export interface ProvidedContext {
    authEmulatorHost: string;
  }
}

interface SharedEmulator {
  emulator: Promise<RunningEmulator>;
  users: number;
}

const key = Symbol.for('crux.tests.authEmulator');
const shared = globalThis as { [key]?: SharedEmulator };

export default async function setup(project: TestProject) {
  const entry = (shared[key] ??= { emulator: startAuthEmulator(), users: 0 });
  entry.users += 1;
  let emulator: RunningEmulator;
  try {
    emulator = await entry.emulator;
  } catch (error) {
    entry.users -= 1;
    if (entry.users === 0) delete shared[key];
    throw error;
  }
  process.env.FIREBASE_AUTH_EMULATOR_HOST = emulator.host;
  project.provide('authEmulatorHost', emulator.host);
  return async () => {
    entry.users -= 1;
    if (entry.users > 0) return;
    delete shared[key];
    await emulator.stop();
  };
}
