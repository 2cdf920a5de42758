// Whether this process should be sent traffic (docs/OPERATIONS.md "Shutdown and
// readiness"): GET /api/ready answers 200 while serving and 503 while starting, migrating or
// draining, for a load balancer or an orchestrator's readiness probe. /api/health only says the
// process answers. main.ts moves the state along; an app built without one (tests) is serving.
import type { ReadyAnswer, ReadyState } from '../../../shared/schemas/answers.js';

export type { ReadyState };

export interface Readiness {
  state(): ReadyState;
  set(state: ReadyState): void;
  /** Aborted by endStreams() (draining, once requests stop being taken): the live streams end, and their clients reconnect elsewhere. */
  readonly draining: AbortSignal;
  endStreams(): void;
}

export function createReadiness(initial: ReadyState = 'serving'): Readiness {
  let state = initial;
  const draining = new AbortController();
  return {
    state: () => state,
    set(next) {
      state = next;
    },
    draining: draining.signal,
    endStreams: () => draining.abort(),
  };
}

/** The body of GET /api/ready, and its status. */
export function readyAnswer(state: ReadyState): { body: ReadyAnswer; status: 200 | 503 } {
  return { body: { ready: state === 'serving', state }, status: state === 'serving' ? 200 : 503 };
}
