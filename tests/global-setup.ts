// Vitest global setup: one real Firebase Auth emulator for the whole run. Test
// files reach it through inject('authEmulatorHost') (see fixtures/auth.ts).
import type { TestProject } from 'vitest/node';
import { startAuthEmulator } from '../scripts/auth-emulator.js';

declare module 'vitest' {
  export interface ProvidedContext {
    authEmulatorHost: string;
  }
}

export default async function setup(project: TestProject) {
  const emulator = await startAuthEmulator();
  process.env.FIREBASE_AUTH_EMULATOR_HOST = emulator.host;
  project.provide('authEmulatorHost', emulator.host);
  return () => emulator.stop();
}
