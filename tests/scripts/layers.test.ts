// The layers of .dependency-cruiser.cjs hold: no import cycle in the app, the server or shared/
// (type-only imports included) but the one listed there as temporary, and no import across a
// layer (screens → data, data → React, shared → a side, server ↔ app). The same rules run on
// tests/scripts/fixtures/layers/, which breaks each of them once, so a rule that stopped matching
// fails here too.
import { join } from 'node:path';
import { cruise, type ICruiseResult, type IViolation } from 'dependency-cruiser';
import extractDepcruiseOptions from 'dependency-cruiser/config-utl/extract-depcruise-options';
import extractTSConfig from 'dependency-cruiser/config-utl/extract-ts-config';
import { describe, expect, it } from 'vitest';

const root = process.cwd();

/** The violations of the repository's rules in `dirs` of `baseDir`, one line each. */
async function violations(baseDir: string, dirs: string[]): Promise<{ errors: string[]; warnings: string[] }> {
  const options = await extractDepcruiseOptions(join(root, '.dependency-cruiser.cjs'));
  const tsConfig = extractTSConfig(join(root, 'tsconfig.json'));
  const { output } = await cruise(dirs, { ...options, baseDir, tsConfig: { fileName: join(root, 'tsconfig.json') } }, {}, { tsConfig });
  const line = (violation: IViolation) =>
    [violation.rule.name, violation.from, ...(violation.cycle?.map((step) => step.name) ?? [violation.to])].join(' → ');
  const all = (output as ICruiseResult).summary.violations;
  return {
    errors: all.filter((violation) => violation.rule.severity === 'error').map(line),
    warnings: all.filter((violation) => violation.rule.severity === 'warn').map(line),
  };
}

describe('the layers of the code', () => {
  it('hold in app/src, sync-server/src and shared/', async () => {
    const { errors, warnings } = await violations(root, ['app/src', 'sync-server/src', 'shared']);
    expect(errors).toEqual([]);
    expect(warnings).toEqual([]);
  }, 60_000);

  it('are broken by each module of the fixture that breaks one', async () => {
    const { errors, warnings } = await violations(join(root, 'tests/scripts/fixtures/layers'), ['app', 'shared', 'sync-server']);
    expect(errors.sort()).toEqual(
      [
        'app-without-server → app/src/data/server-rows.ts → sync-server/src/handler.ts',
        'data-without-ui → app/src/data/render.ts → app/src/hooks/useItems.ts',
        'data-without-ui → app/src/data/render.ts → ../../../../node_modules/react/index.js',
        'no-cycle → app/src/data/items.ts → app/src/data/shelf.ts → app/src/data/items.ts',
        'no-cycle → app/src/data/actions.ts → app/src/data/db.ts → app/src/data/actions.ts',
        'screens-through-hooks → app/src/components/Row.ts → app/src/data/items.ts',
        'server-without-app → sync-server/src/handler.ts → app/src/data/items.ts',
        'shared-imports-neither-side → shared/labels.ts → app/src/data/items.ts',
      ].sort(),
    );
    expect(warnings).toEqual([]);
  }, 60_000);
});
