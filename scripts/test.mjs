#!/usr/bin/env node
// `npm test`: runs every Vitest test (unit, server integration, store, browser),
// then prints the plain closing line CI reads: "N passed, M failed".
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const dir = mkdtempSync(join(tmpdir(), 'crux-vitest-'));
const report = join(dir, 'report.json');
const args = ['vitest', 'run', '--reporter=default', '--reporter=json', `--outputFile.json=${report}`, ...process.argv.slice(2)];
const child = spawn('npx', args, { stdio: 'inherit' });
child.on('exit', (code, signal) => {
  let passed = 0;
  let failed = 0;
  try {
    const result = JSON.parse(readFileSync(report, 'utf8'));
    passed = result.numPassedTests;
    failed = result.numFailedTests + (result.numRuntimeErrorTestSuites ?? 0);
    // A file that failed to load counts as a failure even though it ran no test.
    for (const file of result.testResults ?? []) if (file.status === 'failed' && file.assertionResults.length === 0) failed += 1;
  } catch {
    failed = Math.max(failed, 1);
  }
  rmSync(dir, { recursive: true, force: true });
  console.log(`${passed} passed, ${failed} failed`);
  process.exit(code ?? (signal ? 1 : 0));
});
