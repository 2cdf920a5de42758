import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    environment: 'node',
    include: ['tests/**/*.test.ts', 'tests/**/*.test.tsx'],
    globalSetup: ['tests/global-setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 90_000,
    // Two cores: files run in parallel forks, tests within a file in order.
    pool: 'forks',
    maxWorkers: 2,
  },
});
