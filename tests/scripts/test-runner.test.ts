// scripts/test.mjs, the driver of `npm test`: its closing line "N passed, M failed"
// must count every way a run can fail, never ending "0 failed" on a broken run.
// It runs the driver on the throwaway files of tests/scripts/fixtures/ (their own
// Vitest config: the lanes never include them).
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));
const driver = fileURLToPath(new URL('../../scripts/test.mjs', import.meta.url));
const config = fileURLToPath(new URL('./fixtures/vitest.config.mjs', import.meta.url));

interface Run {
  line: string;
  exitCode: number | null;
}

/** Runs `node scripts/test.mjs --config <fixtures> <filters>`; the line is its last. */
function runDriver(filters: string[], env: Record<string, string> = {}): Promise<Run> {
  return new Promise((resolve) => {
    const options = { cwd: root, env: { ...process.env, ...env, FORCE_COLOR: '0', NO_COLOR: '1' }, timeout: 60_000 };
    execFile(process.execPath, [driver, '--config', config, ...filters], options, (error, stdout) => {
      const lines = stdout.trim().split('\n');
      const exitCode = error ? (typeof error.code === 'number' ? error.code : null) : 0;
      resolve({ line: lines[lines.length - 1] ?? '', exitCode });
    });
  });
}

type CountResults = (report: string | undefined, unhandledErrors: number, exitCode: number) => { passed: number; failed: number };
async function loadCountResults(): Promise<CountResults> {
  const module = (await import(/* @vite-ignore */ driver)) as { countResults: CountResults };
  return module.countResults;
}

// Each case is its own Vitest run (about a second of start-up), so they run side by side.
describe.concurrent('the closing line of scripts/test.mjs', () => {
  it('counts a passing file as passed, exit 0', async () => {
    expect(await runDriver(['pass.fixture'])).toEqual({ line: '1 passed, 0 failed', exitCode: 0 });
  });

  it.each([
    ['a failing test', 'fail.fixture', '1 passed, 1 failed'],
    ['a file with a syntax error', 'syntax-error.fixture', '0 passed, 1 failed'],
    ['a file whose import fails', 'import-error.fixture', '0 passed, 1 failed'],
    ['a file whose beforeAll throws (its test is skipped, not failed)', 'before-all-throws.fixture', '0 passed, 1 failed'],
    ['a describe whose beforeAll throws, beside a passing test', 'describe-hook-throws.fixture', '1 passed, 1 failed'],
    ['an unhandled rejection after a passing test', 'unhandled.fixture', '1 passed, 1 failed'],
  ])('counts %s as failed, exit non-zero', async (_case, filter, line) => {
    const run = await runDriver([filter]);
    expect(run.line).toBe(line);
    expect(run.exitCode).not.toBe(0);
  });

  it('adds every broken file up in one run', async () => {
    const run = await runDriver([]);
    // passed: pass, fail's first test, the test beside the broken describe, the unhandled one's test;
    // failed: fail, syntax-error, import-error, before-all-throws, describe-hook-throws, unhandled.
    expect(run.line).toBe('4 passed, 6 failed');
    expect(run.exitCode).not.toBe(0);
  });

  it('counts a globalSetup that throws as failed', async () => {
    const run = await runDriver(['pass.fixture'], { CRUX_FIXTURE_GLOBAL_SETUP: './global-setup-throws.mjs' });
    expect(run.line).toBe('0 passed, 1 failed');
    expect(run.exitCode).not.toBe(0);
  });
});

describe('countResults (the report, the unhandled errors, the exit code)', () => {
  const report = (overrides: object) =>
    JSON.stringify({ numPassedTests: 3, numFailedTestSuites: 0, success: true, testResults: [], ...overrides });

  it('trusts a successful report with exit 0', async () => {
    const countResults = await loadCountResults();
    expect(countResults(report({}), 0, 0)).toEqual({ passed: 3, failed: 0 });
  });

  it('counts a missing or unparseable report as a failure', async () => {
    const countResults = await loadCountResults();
    expect(countResults(undefined, 0, 1)).toEqual({ passed: 0, failed: 1 });
    expect(countResults(undefined, 0, 0)).toEqual({ passed: 0, failed: 1 });
    expect(countResults('{"numPassedTests": 3, "succ', 0, 1)).toEqual({ passed: 0, failed: 1 });
  });

  it('never says 0 failed when Vitest exits non-zero or reports no success', async () => {
    const countResults = await loadCountResults();
    expect(countResults(report({}), 0, 1)).toEqual({ passed: 3, failed: 1 });
    expect(countResults(report({ success: false }), 0, 0)).toEqual({ passed: 3, failed: 1 });
    expect(countResults(report({ numFailedTestSuites: 2 }), 0, 0)).toEqual({ passed: 3, failed: 1 });
  });

  it('counts failed tests, file-level errors and unhandled errors', async () => {
    const countResults = await loadCountResults();
    const testResults = [
      { status: 'failed', message: '', assertionResults: [{ status: 'failed' }, { status: 'failed' }, { status: 'passed' }] },
      { status: 'failed', message: 'afterAll threw', assertionResults: [{ status: 'failed' }] },
      { status: 'failed', message: 'Cannot find module', assertionResults: [] },
      { status: 'failed', message: '', assertionResults: [{ status: 'skipped' }] },
      { status: 'passed', message: '', assertionResults: [{ status: 'passed' }] },
    ];
    expect(countResults(report({ success: false, numPassedTests: 2, testResults }), 2, 1)).toEqual({ passed: 2, failed: 8 });
  });
});
