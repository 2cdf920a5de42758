// What a PostgreSQL repo runs its SQL through. Inside Store.transaction the
// calls go to the transaction's client (found through AsyncLocalStorage, so repos never
// pass it around); outside, to any pooled connection, which sees committed rows only.
// Parameters are positional ($1, $2, …). bigint and numeric arrive as JS numbers (the
// pool's type parsers), so rows have the SQLite store's shapes.
export interface PgQueries {
  /** Every row the statement returns. */
  rows<T>(text: string, params?: readonly unknown[]): Promise<T[]>;
  /** The first row, or undefined. */
  row<T>(text: string, params?: readonly unknown[]): Promise<T | undefined>;
  /** Runs a statement; resolves to how many rows it touched. */
  run(text: string, params?: readonly unknown[]): Promise<number>;
  /** Whether the calls go to an open transaction (its writes may still roll back). */
  inTransaction(): boolean;
}
