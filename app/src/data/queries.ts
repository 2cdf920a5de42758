// Live read API over the local databases: every list the screens need, as
// observables that update on any local write or replicated change.
import { normalizePushSettings, type PushSettings } from '../../../shared/push.js';
import {
  combineLatest,
  distinctUntilChanged,
  finalize,
  from,
  map,
  merge,
  of,
  shareReplay,
  switchMap,
  takeUntil,
  tap,
  type Observable,
} from 'rxjs';
import { hotScore } from '../../../shared/rules/hot.js';
import { comparatorFor, NOTIFICATION_ORDER, TOPIC_ORDERS } from '../../../shared/rules/sort-order.js';
import type { Preferences } from '../../../shared/types.js';
import type {
  BlockedUserView,
  FollowedTopicView,
  NotificationItem,
  ResponseBalance,
  ResponseOrder,
  ResponseView,
  StanceView,
  SyncProblem,
  TopicList,
  TopicQuery,
  TopicView,
} from './api.js';
import { createCommonGroundOrderer, type Sides } from './common-ground-order.js';
import type { StanceDocType } from './collections/stance.schema.js';
import type { BlockMark, FollowMark } from './collections/mark.schema.js';
import type { MangoQuerySortPart } from 'rxdb';
import type { ResponseDocType } from './collections/response.schema.js';
import type { VoteDocType } from './collections/vote.schema.js';
import type { PublicDb, UserDb } from './db.js';
import type { Follows } from './follows.js';
import { problemsIn } from './problems.js';
import { kindSelector, storedIn, SYNCED } from './collections/index.js';
import { SYNC_COLLECTIONS } from '../../../shared/sync-protocol.js';
import { titleMatcher } from '../../../shared/rules/search-words.js';
import { topicDocs$ } from './topic-docs.js';
import { createTopicTreeBuilder, responsesCountDelta, topicView, type TopicTreeView, type VoteMap } from './views.js';
import { FIRST_SCREEN_ROOTS, PAGE_SIZE } from '../../../shared/constants.js';
import type { ServerPage, TopicLists } from './topic-lists.js';

/** Root responses read ahead of the whole tree: the first screen of a big debate (ResponseList renders as many at once). */
export { FIRST_SCREEN_ROOTS };
/** The (topic_id, created_at, id) index's order: the index answers the sort, no sort in memory. */
const RESPONSE_SORT: MangoQuerySortPart<ResponseDocType>[] = [{ created_at: 'asc' }, { id: 'asc' }];

function stanceView(doc: StanceDocType): StanceView {
  return {
    topic_id: doc.topic_id,
    stance: doc.stance,
    first_stance: doc.first_stance,
    history: doc.history.map((change) => ({ stance: change.stance, at: change.at })),
    credits: [...doc.credits],
    isPending: doc.pending,
  };
}

const plain = <T>(docs: { toJSON(): unknown }[]) => docs.map((doc) => doc.toJSON() as T);

export function createQueries(publicDb: PublicDb, userDb$: Observable<UserDb | null>, follows: Follows, lists: TopicLists) {
  const votes$: Observable<VoteMap> = userDb$.pipe(
    switchMap((db) =>
      db ? db.votes.find().$.pipe(map((docs) => new Map(plain<VoteDocType>(docs).map((v) => [v.id, v])))) : of(new Map()),
    ),
    shareReplay({ bufferSize: 1, refCount: true }),
  );
  const saved$ = follows.saved$.pipe(map((ids) => new Set(ids)));

  const topicResponseDocs$ = (topicId: string) =>
    publicDb.responses.find({ selector: { topic_id: topicId } }).$.pipe(map((docs) => plain<ResponseDocType>(docs)));

  /** responses_count changes from local work not yet confirmed, per topic. */
  const countDelta$ = publicDb.responses.find({ selector: { pending: true } }).$.pipe(
    map((docs) => plain<ResponseDocType>(docs)),
    switchMap((pending) => {
      const withDeletes = [...new Set(pending.filter((doc) => doc.pending_delete).map((doc) => doc.topic_id))];
      if (withDeletes.length === 0) return of(responsesCountDelta(pending, () => []));
      return combineLatest(withDeletes.map(topicResponseDocs$)).pipe(
        map((lists) => responsesCountDelta(pending, (topicId) => lists[withDeletes.indexOf(topicId)] ?? [])),
      );
    }),
    shareReplay({ bufferSize: 1, refCount: true }),
  );

  /**
   * One live tree per open topic, shared by the page, every expanded thread and the quote search: the
   * topic's responses read once by its index (topic_id, created_at) and kept from the stored changes
   * (topic-docs.ts), the views built once per emission, unchanged views kept.
   */
  const trees = new Map<string, Observable<TopicTreeView>>();
  /** The topic of every response a tree has shown, so a thread's replies skip a lookup query. */
  const topicOf = new Map<string, string>();
  const topicTree$ = (topicId: string): Observable<TopicTreeView> => {
    let tree = trees.get(topicId);
    if (!tree) {
      const build = createTopicTreeBuilder();
      // Not a subscribed query: a big topic arriving costs each stored batch its own documents, not a
      // copy of the whole list (topic-docs.ts).
      const docs$ = topicDocs$(publicDb.responses, topicId).pipe(
        tap((docs) => {
          for (const doc of docs) topicOf.set(doc.id, topicId);
        }),
      );
      tree = combineLatest([docs$, votes$]).pipe(
        map(([docs, votes]) => build(docs, votes)),
        finalize(() => trees.get(topicId) === tree && trees.delete(topicId)),
        shareReplay({ bufferSize: 1, refCount: true }),
      );
      trees.set(topicId, tree);
    }
    return tree;
  };
  /** A topic's participants on each side (common ground's denominators), emitted when they change. */
  const sides$ = (topicId: string): Observable<Sides> =>
    publicDb.topics.findOne(topicId).$.pipe(
      map((doc) => ({ agree: doc?.stance_agree ?? 0, disagree: doc?.stance_disagree ?? 0 })),
      distinctUntilChanged((a, b) => a.agree === b.agree && a.disagree === b.disagree),
    );
  const topicResponses$ = (topicId: string): Observable<ResponseView[]> => topicTree$(topicId).pipe(map((tree) => tree.all()));
  const NONE: ResponseView[] = [];
  const childrenIn$ = (topicId: string, parentId: string | null) =>
    topicTree$(topicId).pipe(
      map((tree) => tree.children(parentId)),
      distinctUntilChanged(),
    );

  const notifications$ = (): Observable<NotificationItem[]> =>
    userDb$.pipe(
      switchMap((db) => (db ? db.notifications.find().$ : of([]))),
      map((docs) =>
        docs
          .map((doc) => doc.toJSON())
          .map(({ id, type, actor_display_name, target_summary, target_id, response_id, response_deleted, created_at, is_read }) => ({
            id,
            type,
            actor_display_name,
            target_summary,
            target_id,
            response_id,
            response_deleted,
            created_at,
            is_read,
          }))
          .sort(comparatorFor(NOTIFICATION_ORDER)),
      ),
    );

  /**
   * The first screen of roots, before the whole tree: the (topic_id, created_at) index walked in
   * order stops after FIRST_SCREEN_ROOTS roots, where the whole tree reads every document of the topic
   * (seconds for 10,000 on a phone). The quoted responses are read by id so the first rows are final.
   */
  const firstRoots$ = (topicId: string): Observable<ResponseView[]> =>
    from(
      (async () => {
        const roots = await publicDb.responses
          .find({ selector: { topic_id: topicId, parent_response_id: null }, sort: RESPONSE_SORT, limit: FIRST_SCREEN_ROOTS })
          .exec();
        const rootIds = new Set(roots.map((doc) => doc.primary));
        const quotedIds = roots.map((doc) => doc.quoted_response_id).filter((id): id is string => !!id && !rootIds.has(id));
        const quoted = quotedIds.length > 0 ? [...(await publicDb.responses.findByIds(quotedIds).exec()).values()] : [];
        return { docs: [...roots, ...quoted].map((doc) => doc._data), rootIds };
      })(),
    ).pipe(
      switchMap(({ docs, rootIds }) => {
        const build = createTopicTreeBuilder();
        return votes$.pipe(
          map((votes) =>
            build(docs, votes)
              .children(null)
              .filter((view) => rootIds.has(view.id)),
          ),
        );
      }),
    );

  /** The user's live blocks, most recent first: one query shared by the settings list and every collapsed row. */
  const blockedUsers$: Observable<BlockedUserView[]> = userDb$.pipe(
    switchMap((db) => (db ? db.marks.find({ selector: { kind: 'blocks', blocked: true } }).$ : of([]))),
    map((docs) =>
      plain<BlockMark>(docs)
        .map((doc) => ({
          uid: doc.blocked_uid,
          display_name: doc.display_name ?? null,
          updated_at: doc.updated_at,
          isPending: doc.pending,
        }))
        .sort((a, b) => b.updated_at.localeCompare(a.updated_at) || a.uid.localeCompare(b.uid)),
    ),
    shareReplay({ bufferSize: 1, refCount: true }),
  );
  /** The user's follows, most recent first, unfollowed ones too: one query shared by the topic page's button and the user page. */
  const follows$: Observable<FollowedTopicView[]> = userDb$.pipe(
    switchMap((db) => (db ? db.marks.find({ selector: { kind: 'follows' } }).$ : of([]))),
    map((docs) =>
      plain<FollowMark>(docs)
        .map((doc) => ({
          topic_id: doc.topic_id,
          title: doc.title ?? null,
          following: doc.following,
          updated_at: doc.updated_at,
          isPending: doc.pending,
        }))
        .sort((a, b) => b.updated_at.localeCompare(a.updated_at) || a.topic_id.localeCompare(b.topic_id)),
    ),
    shareReplay({ bufferSize: 1, refCount: true }),
  );
  const blockedUids$: Observable<ReadonlySet<string>> = blockedUsers$.pipe(
    map((list) => new Set(list.map((user) => user.uid))),
    distinctUntilChanged((a, b) => a.size === b.size && [...a].every((uid) => b.has(uid))),
    shareReplay({ bufferSize: 1, refCount: true }),
  );

  /**
   * A list: online the server's page (`page`: its ids, and the device's own topics made since it was
   * read), offline every topic this device keeps; either way in the server's order over the local
   * truth (shared/rules/sort-order.ts).
   */
  const listOf$ = (query: TopicQuery, page: ServerPage | null): Observable<TopicList> => {
    const sort = query.sort ?? 'hot';
    const matches = query.search ? titleMatcher(query.search) : null;
    const selector = query.category ? { category: query.category } : {};
    const listed = page ? new Set(page.ids) : null;
    return combineLatest([publicDb.topics.find({ selector }).$, votes$, countDelta$, saved$, follows.onDevice$]).pipe(
      map(([docs, votes, delta, saved, onDevice]) => {
        const views = docs
          .filter((doc) => !doc.pending_delete && (!matches || matches(doc.title)))
          .filter((doc) => !listed || listed.has(doc.id) || doc.seq === 0 || doc.created_at > page!.readAt)
          .map((doc) => topicView(doc.toJSON(), votes, delta.get(doc.id) ?? 0, saved, onDevice));
        const rows = views.map((view) => ({
          view,
          id: view.id,
          created_at: view.created_at,
          score: view.score,
          hot: hotScore(view.score, view.responses_count, view.created_at),
        }));
        rows.sort(comparatorFor(TOPIC_ORDERS[sort]));
        return { topics: rows.slice(0, query.limit ?? PAGE_SIZE).map((row) => row.view), savedOnDevice: page ? null : rows.length };
      }),
    );
  };
  const topicList$ = (query: TopicQuery = {}): Observable<TopicList> => {
    const listQuery = { sort: query.sort ?? 'hot', category: query.category, search: query.search };
    return lists.page$(listQuery, query.limit ?? PAGE_SIZE).pipe(switchMap((page) => listOf$(query, page)));
  };

  return {
    topicList$,
    topics$(query: TopicQuery = {}): Observable<TopicView[]> {
      return topicList$(query).pipe(map((list) => list.topics));
    },
    topic$(topicId: string): Observable<TopicView | null | undefined> {
      return combineLatest([
        publicDb.topics.findOne(topicId).$,
        votes$,
        countDelta$,
        saved$,
        lists.topicKnown$(topicId),
        follows.onDevice$,
      ]).pipe(
        map(([doc, votes, delta, saved, known, onDevice]) => {
          if (!doc || doc.pending_delete) return known ? null : undefined;
          return topicView(doc.toJSON(), votes, delta.get(topicId) ?? 0, saved, onDevice);
        }),
      );
    },
    topicResponses$,
    rootResponses$(topicId: string, order: ResponseOrder = 'default'): Observable<ResponseView[]> {
      const all$ = childrenIn$(topicId, null);
      if (order === 'common-ground') {
        // No first screen here: the best-scored roots are known only once every root is read.
        const reorder = createCommonGroundOrderer();
        return combineLatest([all$, sides$(topicId)]).pipe(
          map(([roots, sides]) => reorder(roots, sides)),
          distinctUntilChanged(),
        );
      }
      // The first screen until the whole tree is read (at once when it is already live).
      return merge(firstRoots$(topicId).pipe(takeUntil(all$)), all$);
    },
    responseBalance$(topicId: string): Observable<ResponseBalance> {
      // Counted over the topic's one live tree query (shared with the page), not a query per type.
      return topicTree$(topicId).pipe(
        map((tree) => tree.countByType()),
        distinctUntilChanged((a, b) => a.for === b.for && a.against === b.against && a.neutral === b.neutral),
      );
    },
    stance$(topicId: string): Observable<StanceView | null> {
      return userDb$.pipe(
        switchMap((db) => (db ? db.stances.findOne(topicId).$ : of(null))),
        map((doc) => (doc ? stanceView(doc.toJSON() as StanceDocType) : null)),
      );
    },
    replies$(responseId: string): Observable<ResponseView[]> {
      // A thread opened on the topic page: its topic's tree is already live (no query per thread).
      const known = topicOf.get(responseId);
      if (known) return childrenIn$(known, responseId);
      return publicDb.responses.findOne(responseId).$.pipe(
        map((doc) => doc?.topic_id ?? null),
        distinctUntilChanged(),
        switchMap((topicId) => (topicId ? childrenIn$(topicId, responseId) : of(NONE))),
      );
    },
    async ancestorPath(responseId: string): Promise<string[]> {
      const path: string[] = [];
      let id: string | null = responseId;
      while (id && !path.includes(id)) {
        path.unshift(id);
        const doc: { parent_response_id?: string | null } | null = await publicDb.responses.findOne(id).exec();
        id = doc?.parent_response_id ?? null;
      }
      return path;
    },
    notifications$,
    blockedUsers$: () => blockedUsers$,
    follows$: () => follows$,
    blockedUids$: () => blockedUids$,
    unreadCount$: () =>
      notifications$().pipe(
        map((list) => list.filter((n) => !n.is_read).length),
        distinctUntilChanged(),
      ),
    preferences$(uid$: Observable<string | null>): Observable<Preferences | null> {
      return combineLatest([userDb$, uid$]).pipe(
        switchMap(([db, uid]) => (db && uid ? db.profile.findOne(uid).$ : of(null))),
        map((doc) => (doc ? { receive_weekly_summary: doc.receive_weekly_summary } : null)),
      );
    },
    pushSettings$(uid$: Observable<string | null>): Observable<PushSettings | null> {
      return combineLatest([userDb$, uid$]).pipe(
        switchMap(([db, uid]) => (db && uid ? db.profile.findOne(uid).$ : of(null))),
        map((doc) => (doc ? normalizePushSettings(doc.push_settings) : null)),
      );
    },
    syncProblems$(): Observable<SyncProblem[]> {
      return userDb$.pipe(switchMap((db) => (db ? problemsIn(db).list$() : of([]))));
    },
    /** Local changes not yet confirmed, over every replicated collection. */
    pendingCount$(): Observable<number> {
      // Public collections are large: a count over their `pending` index loads no document.
      const count = (collection: { count(q: object): { $: Observable<number> } }) => collection.count({ selector: { pending: true } }).$;
      // The user's own collections are small (and not indexed on `pending`).
      const found = (collection: { find(q: object): { $: Observable<unknown[]> } }, kind: Record<string, unknown>) =>
        collection.find({ selector: { ...kind, pending: true } }).$.pipe(map((docs) => docs.length));
      return combineLatest([
        count(publicDb.topics as never),
        count(publicDb.responses as never),
        userDb$.pipe(
          switchMap((db) =>
            db
              ? combineLatest(
                  // Every synced collection of the user's database (the registry says which): a new one counts without a line here.
                  SYNC_COLLECTIONS.filter((name) => SYNCED[name].database === 'user').map((name) =>
                    found((db as unknown as Record<string, Parameters<typeof found>[0]>)[storedIn(name)]!, kindSelector(name)),
                  ),
                )
              : of([0]),
          ),
          map((counts) => counts.reduce((a, b) => a + b, 0)),
        ),
      ]).pipe(
        map(([a, b, c]) => a + b + c),
        distinctUntilChanged(),
      );
    },
  };
}

export type Queries = ReturnType<typeof createQueries>;
