// The read replica's lag as a Prometheus gauge, for the /metrics registry:
// seconds the replica is behind the primary (store/pg/replica.ts measures it), read at each
// scrape. Absent from the scrape when the store has no replica (READ_DATABASE_URL unset).
import { Gauge, type Registry } from 'prom-client';
import type { Store } from '../types.js';

export const REPLICA_LAG_METRIC = 'crux_pg_replica_lag_seconds';
export const REPLICA_LAG_HELP =
  'Seconds the PostgreSQL read replica (READ_DATABASE_URL) is behind the primary; past READ_REPLICA_MAX_LAG_SECONDS every read goes to the primary.';

export function registerReplicaLagGauge(registry: Registry, store: Pick<Store, 'replicaLagSeconds'>): Gauge | undefined {
  if ((store.replicaLagSeconds?.() ?? null) === null) return undefined;
  return new Gauge({
    name: REPLICA_LAG_METRIC,
    help: REPLICA_LAG_HELP,
    registers: [registry],
    collect() {
      this.set(store.replicaLagSeconds?.() ?? 0);
    },
  });
}
