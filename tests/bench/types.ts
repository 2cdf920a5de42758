// One measured figure of a bench, in the shape every bench module returns (the lead merges them into one table).
export interface BenchRow {
  name: string;
  value: number;
  unit: string;
  /** The budget (same unit) the value must stay under, when there is one. */
  budget?: number;
  /** The value must reach the budget instead (a rate, a score, a share of a baseline). */
  higherIsBetter?: boolean;
  note?: string;
}
