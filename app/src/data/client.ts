// Builds a CruxData from its options. IN PROGRESS (issue 3): the API in api.ts is
// stable; this composition is being filled in.
import type { CruxData, CruxDataOptions } from './api.js';

export async function createCruxData(_options: CruxDataOptions): Promise<CruxData> {
  throw new Error('createCruxData: the data layer is still being built (issue 3).');
}
