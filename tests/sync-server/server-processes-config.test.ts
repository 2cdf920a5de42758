// SERVER_PROCESSES (config.ts; docs/OPERATIONS.md "Several processes on one SQLite file"): unset is one
// process, as before; a whole number up to MAX_SERVER_PROCESSES is taken; anything else, and more than
// one beside DATABASE_URL (PostgreSQL runs several servers instead), stops the start with a message.
import { describe, expect, it } from 'vitest';
import { MAX_SERVER_PROCESSES, readConfig } from '../../sync-server/src/config.js';

describe('SERVER_PROCESSES', () => {
  it('is 1 when unset or empty, and takes a whole number up to the maximum', () => {
    expect(readConfig({}).serverProcesses).toBe(1);
    expect(readConfig({ SERVER_PROCESSES: ' ' }).serverProcesses).toBe(1);
    expect(readConfig({ SERVER_PROCESSES: '2' }).serverProcesses).toBe(2);
    expect(readConfig({ SERVER_PROCESSES: String(MAX_SERVER_PROCESSES) }).serverProcesses).toBe(MAX_SERVER_PROCESSES);
    // One process beside PostgreSQL is today's server.
    expect(readConfig({ SERVER_PROCESSES: '1', DATABASE_URL: 'postgres://localhost/crux' }).serverProcesses).toBe(1);
  });

  it('refuses anything else with a message naming the variable', () => {
    for (const bad of ['0', '-1', '1.5', 'two', String(MAX_SERVER_PROCESSES + 1)]) {
      expect(() => readConfig({ SERVER_PROCESSES: bad })).toThrow(
        `SERVER_PROCESSES must be a whole number from 1 to ${MAX_SERVER_PROCESSES}`,
      );
    }
    expect(() => readConfig({ SERVER_PROCESSES: '2', DATABASE_URL: 'postgres://localhost/crux' })).toThrow(
      /SERVER_PROCESSES is for the SQLite file; with DATABASE_URL \(PostgreSQL\) start several servers instead/,
    );
  });
});
