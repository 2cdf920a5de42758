// Everything the server reads from the environment, in one place (README lists it).
import { resolve } from 'node:path';

export interface Config {
  port: number;
  host: string;
  dataDir: string;
  databaseFile: string;
  staticDir: string;
  firebaseProjectId: string;
  serviceAccountJson: string | undefined;
  seedDemo: boolean;
}

export function readConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const dataDir = resolve(env.DATA_DIR ?? 'data');
  return {
    port: Number(env.PORT ?? 8080),
    host: env.HOST ?? '127.0.0.1',
    dataDir,
    databaseFile: resolve(dataDir, 'crux.sqlite'),
    staticDir: resolve(env.STATIC_DIR ?? 'dist'),
    firebaseProjectId: env.FIREBASE_PROJECT_ID ?? 'demo-crux',
    serviceAccountJson: env.FIREBASE_SERVICE_ACCOUNT,
    seedDemo: (env.SEED_DEMO ?? 'true') !== 'false',
  };
}
