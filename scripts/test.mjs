#!/usr/bin/env node
// `npm test` (and `npm run test:<lane>`): runs Vitest with the arguments given
// (e.g. `--project unit`, `--config <file>`, file filters), then prints the plain
// closing line CI reads: "N passed, M failed".
//
// The line must never claim success the run did not have. M counts every failed
// test, plus one for each test file that failed without a failed test of its own
// (it did not load, or a beforeAll/afterAll or a describe's hook threw: its tests
// are then "skipped", not "failed"), plus one for a file-level error beside failed
// tests, plus one for each unhandled error. When the report is missing or
// unreadable, or Vitest says the run did not succeed, or exits non-zero (a
// globalSetup that threw, no test files), M is at least 1. The exit code is
// Vitest's, and non-zero whenever M > 0.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The closing line's counts from Vitest's JSON report (its text, or undefined
 * when none was written), the number of unhandled errors Vitest reported and its
 * exit code.
 * @param {string | undefined} reportText
 * @param {number} unhandledErrors
 * @param {number} exitCode
 * @returns {{ passed: number, failed: number }}
 */
export function countResults(reportText, unhandledErrors, exitCode) {
  let passed = 0;
  let failed = 0;
  let trustworthy = false;
  try {
    if (reportText === undefined) throw new Error('no report');
    const report = JSON.parse(reportText);
    passed = report.numPassedTests ?? 0;
    for (const file of report.testResults ?? []) {
      const failedTests = (file.assertionResults ?? []).filter((test) => test.status === 'failed').length;
      // A file-level error (load failure, top-level hook) is a failure of its own.
      let fileFailures = failedTests + (file.message ? 1 : 0);
      // A file marked failed with nothing failed in it (a describe's hook threw): still one.
      if (file.status === 'failed' && fileFailures === 0) fileFailures = 1;
      failed += fileFailures;
    }
    failed += unhandledErrors;
    trustworthy = report.success === true && (report.numFailedTestSuites ?? 0) === 0;
  } catch {
    // no report, or not JSON: the run cannot be called a success
  }
  if (!trustworthy || exitCode !== 0) failed = Math.max(failed, 1);
  return { passed, failed };
}

/**
 * Also a Vitest reporter (this file is passed to --reporter): the JSON report
 * leaves out unhandled errors (a rejection nobody awaited, an error thrown after
 * a test ended), so their number is written to the file CRUX_TEST_UNHANDLED names.
 */
export default class UnhandledErrorsReporter {
  /** @param {unknown} _modules @param {ReadonlyArray<unknown>} unhandledErrors */
  onTestRunEnd(_modules, unhandledErrors) {
    if (process.env.CRUX_TEST_UNHANDLED) writeFileSync(process.env.CRUX_TEST_UNHANDLED, String(unhandledErrors.length));
  }
}

function readOrUndefined(file) {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
}

function main() {
  const dir = mkdtempSync(join(tmpdir(), 'crux-vitest-'));
  const report = join(dir, 'report.json');
  const unhandled = join(dir, 'unhandled.txt');
  const self = fileURLToPath(import.meta.url);
  const vitest = join(dirname(createRequire(import.meta.url).resolve('vitest/package.json')), 'vitest.mjs');
  const args = [
    vitest,
    'run',
    '--reporter=default',
    '--reporter=json',
    `--reporter=${self}`,
    `--outputFile.json=${report}`,
    // `node scripts/test.mjs -- <file>` means the file: Vitest would take a `--` as the end of its
    // options and run every test, so it is dropped (npm run drops it the same way).
    ...process.argv.slice(2).filter((arg, i) => !(i === 0 && arg === '--')),
  ];
  const child = spawn(process.execPath, args, { stdio: 'inherit', env: { ...process.env, CRUX_TEST_UNHANDLED: unhandled } });
  // Ctrl-C reaches Vitest directly (same process group): it stops the run and its
  // globalSetup teardowns; this driver waits for it to print the closing line.
  process.on('SIGINT', () => {});
  process.on('SIGTERM', () => child.kill('SIGTERM'));
  child.on('exit', (code, signal) => {
    const exitCode = code ?? (signal ? 1 : 0);
    const text = readOrUndefined(report);
    const unhandledErrors = Number(readOrUndefined(unhandled) ?? 0) || 0;
    rmSync(dir, { recursive: true, force: true });
    const { passed, failed } = countResults(text, unhandledErrors, exitCode);
    console.log(`${passed} passed, ${failed} failed`);
    process.exit(failed > 0 ? exitCode || 1 : exitCode);
  });
}

// Run when executed (`node scripts/test.mjs`), not when imported (its test imports countResults).
if (process.argv[1] && realpathSync(process.argv[1]) === realpathSync(fileURLToPath(import.meta.url))) main();
