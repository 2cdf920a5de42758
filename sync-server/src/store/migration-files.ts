// An engine's migrations folder read in order: NNN-name.sql, the version from its number
// (store/sqlite/migrations/, store/pg/migrations/).
import { readdirSync, readFileSync } from 'node:fs';

export interface Migration {
  version: number;
  name: string;
  sql: string;
}

export function readMigrations(dir: string): Migration[] {
  return readdirSync(dir)
    .filter((file) => /^\d{3}-[\w-]+\.sql$/.test(file))
    .sort()
    .map((file) => ({
      version: Number(file.slice(0, 3)),
      name: file,
      sql: readFileSync(dir + file, 'utf8'),
    }));
}
