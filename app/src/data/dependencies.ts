// Keeps "in the order made" across collections: a reply is not pushed before the
// topic (or parent response) it answers reached the server, nor a vote before
// its target. An item made here has seq 0 until the server's state comes back.
//
// A vote and a stance on the same topic are also sent in the order made: the
// server counts an upvote by the voter's stance when the vote arrives, so a
// stance changed (offline) before a vote lands first, and a vote made before an
// offline change of stance lands before it. Those two wait on each other's
// pending changes in the user's database; a push batch of votes is sent in two
// waves (push-handler.ts): the votes nothing holds back first, so a stance
// waiting for them can go, then the votes that waited for that stance.
// What a document depends on is its collection's registry entry (`dependsOn`).
import { BehaviorSubject, combineLatest, filter, firstValueFrom, map, timeout, type Observable } from 'rxjs';
import type { SyncCollection } from '../../../shared/sync-protocol.js';
import { SYNCED, type Dependency, type LocalRow } from './collections/index.js';
import type { PublicDb } from './db.js';

const WAIT_MS = 15_000;

/** What this file needs of a public collection: an item's seq, now and live. */
interface SeqSource {
  findOne(id: string): { exec(): Promise<{ seq: number } | null>; $: Observable<{ seq: number } | null> };
}

/** What this file needs of a user collection: the documents a selector matches, now and live. */
interface QuerySource {
  find(query: { selector: Record<string, unknown> }): {
    exec(): Promise<{ toJSON(): unknown }[]>;
    $: Observable<{ toJSON(): unknown }[]>;
  };
}

type OwnDependency = Extract<Dependency, { selector: unknown }>;

/** The collections of the database a replication runs on (the user's, for votes and stances). */
export type OwnCollections = Partial<Record<SyncCollection, unknown>>;

async function confirmed(collection: SeqSource, id: string | null | undefined): Promise<void> {
  if (!id) return;
  const doc = await collection.findOne(id).exec();
  if (!doc || doc.seq > 0) return;
  // Times out into a thrown error: the outbox retries the push later.
  await firstValueFrom(
    collection.findOne(id).$.pipe(
      filter((d) => !d || d.seq > 0),
      timeout(WAIT_MS),
    ),
  );
}

export function createDependencyWaiter(db: PublicDb) {
  // Changes the server has answered whose local state is not written back yet (the outbox writes
  // it back only at the end of its batch): `${collection}:${id}:${updated_at}`.
  const landedKeys = new Set<string>();
  const landed$ = new BehaviorSubject(0);
  const key = (collection: SyncCollection, doc: LocalRow) => `${collection}:${doc.id}:${String(doc.updated_at)}`;

  /** Whether a pending change of the user's own holds this document back, given its documents now. */
  const holds = (dependency: OwnDependency, docs: { toJSON(): unknown }[]) =>
    docs.some((d) => {
      const doc = d.toJSON() as LocalRow;
      return dependency.blocks(doc) && !landedKeys.has(key(dependency.collection, doc));
    });

  function ownDependencies(collection: SyncCollection, doc: LocalRow, own: OwnCollections) {
    const dependsOn = SYNCED[collection].sync.dependsOn;
    return (dependsOn?.(doc) ?? []).flatMap((dependency) => {
      if (!('selector' in dependency)) return [];
      const source = own[dependency.collection] as QuerySource | undefined;
      return source ? [{ dependency, source }] : [];
    });
  }

  return {
    /** Resolves once what these documents depend on is on the server. */
    async wait(collection: SyncCollection, docs: LocalRow[], own: OwnCollections = {}): Promise<void> {
      const dependsOn = SYNCED[collection].sync.dependsOn;
      if (!dependsOn) return;
      // Parents in the same push are fine: the server applies a batch parents first.
      const inBatch = new Set(docs.map((doc) => doc.id));
      for (const doc of docs) {
        for (const dependency of dependsOn(doc)) {
          if ('selector' in dependency) continue;
          if (dependency.collection === collection && dependency.id && inBatch.has(dependency.id)) continue;
          await confirmed(db[dependency.collection], dependency.id);
        }
        for (const { dependency, source } of ownDependencies(collection, doc, own)) {
          const query = source.find({ selector: dependency.selector });
          // Best effort: after the wait the change goes anyway (never a deadlock between the two
          // collections, e.g. over more pending votes than one push batch holds).
          await firstValueFrom(
            combineLatest([query.$, landed$]).pipe(
              map(([matching]) => holds(dependency, matching)),
              filter((held) => !held),
              timeout(WAIT_MS),
            ),
          ).catch(() => undefined);
        }
      }
    },
    /** Whether a change of the user's own holds this document back now (it goes in the second wave). */
    async heldBack(collection: SyncCollection, doc: LocalRow, own: OwnCollections = {}): Promise<boolean> {
      for (const { dependency, source } of ownDependencies(collection, doc, own)) {
        if (holds(dependency, await source.find({ selector: dependency.selector }).exec())) return true;
      }
      return false;
    },
    /** The server answered these changes: nothing waits for them any more. */
    landed(collection: SyncCollection, docs: LocalRow[]): void {
      for (const doc of docs) landedKeys.add(key(collection, doc));
      // Bounded: the keys only matter until the outbox writes the answered states back.
      if (landedKeys.size > 1000) landedKeys.clear();
      landed$.next(landed$.value + 1);
    },
  };
}

export type DependencyWaiter = ReturnType<typeof createDependencyWaiter>;
