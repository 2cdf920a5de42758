// Fast bench seeding: direct SQL inserts in one transaction (no domain rules,
// no change feed), with seq stamped in order like the server would.
import { CATEGORIES } from '../../shared/constants.js';
import { hotScore } from '../../shared/rules/hot.js';
import type { Db } from '../../sync-server/src/store/sqlite/connection.js';
import type { ResponsePosition } from '../../sync-server/src/store/rows.js';
import { encodeCursor, RESPONSES_ANSWER_MAX } from '../../sync-server/src/routes/responses.js';

export function seedBench(db: Db, topics: number, responsesInOneTopic: number): { bigTopicId: string } {
  const insertTopic = db.prepare(
    `INSERT INTO topics (id, title, category, creator_uid, created_at, responses_count, responses_for, responses_against,
                         responses_neutral, hot, seq) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const insertResponse = db.prepare(`
    INSERT INTO responses (id, topic_id, parent_response_id, quoted_response_id, type, content, creator_uid, created_at, updated_at, seq)
    VALUES (?, ?, ?, NULL, ?, ?, ?, ?, ?, ?)`);
  let seq = 0;
  const bigTopicId = 'bench-topic-big';
  db.transaction(() => {
    db.prepare("INSERT INTO users (uid, display_name, email, created_at) VALUES ('bench', 'Bench', NULL, ?)").run(new Date().toISOString());
    const base = Date.UTC(2026, 0, 1);
    for (let i = 0; i < topics; i++) {
      const id = i === 0 ? bigTopicId : `bench-topic-${i}`;
      const created = new Date(base + i * 1000).toISOString();
      const count = i === 0 ? responsesInOneTopic : 0;
      insertTopic.run(
        id,
        `Benchmark debate number ${i} about things`,
        'Science',
        'bench',
        created,
        count,
        // Response i is of type i % 3.
        Math.ceil(count / 3),
        Math.ceil((count - 1) / 3),
        Math.ceil((count - 2) / 3),
        hotScore(0, count, created),
        ++seq,
      );
    }
    const types = ['for', 'against', 'neutral'];
    for (let i = 0; i < responsesInOneTopic; i++) {
      const created = new Date(base + i * 10).toISOString();
      // Every tenth response is a root, the others answer the root before them.
      const parent = i % 10 === 0 ? null : `bench-r-${i - (i % 10)}`;
      insertResponse.run(
        `bench-r-${i}`,
        bigTopicId,
        parent,
        types[i % 3],
        `Argument ${i}: ${'lorem ipsum '.repeat(8)}`,
        'bench',
        created,
        created,
        ++seq,
      );
    }
    db.prepare("UPDATE meta SET value = ? WHERE key = 'seq'").run(seq);
  })();
  return { bigTopicId };
}

/** The sizes of a large seed (env BENCH_TOPICS / BENCH_RESPONSES / BENCH_UPVOTES; a quick run uses 10k / 100k / 200k). */
export interface LargeSeedSizes {
  topics: number;
  responses: number;
  upvotes: number;
  /** Roots of the one big topic (the rest of the responses spread over the other topics). */
  bigTopicRoots: number;
}

export function largeSeedSizes(env: NodeJS.ProcessEnv = process.env): LargeSeedSizes {
  const quick = env.BENCH_QUICK === '1';
  const topics = Number(env.BENCH_TOPICS ?? (quick ? 10_000 : 100_000));
  const responses = Number(env.BENCH_RESPONSES ?? (quick ? 100_000 : 1_000_000));
  const upvotes = Number(env.BENCH_UPVOTES ?? responses * 2);
  const bigTopicRoots = Number(env.BENCH_BIG_ROOTS ?? Math.min(23_000, Math.floor(responses / 4)));
  return { topics, responses, upvotes, bigTopicRoots };
}

/** Words debate titles are made of; "energy" is one of them (about 2% of titles carry it). */
export const SEED_WORDS = (
  'should we ban allow tax fund cars nuclear energy solar wind coal schools homework uniforms phones social media ' +
  'privacy police prisons death penalty vaccines health care insurance minimum wage basic income remote work ' +
  'four day week cities housing rent control zoning trains bikes flights meat dairy sugar alcohol cannabis voting ' +
  'age sixteen elections monarchy europe trade tariffs robots jobs artificial intelligence art music copyright ' +
  'patents space mars moon exploration oceans fishing forests climate carbon plastic recycling water zoos animals ' +
  'testing pets sports doping olympics football chess video games violence screen time children parents teachers ' +
  'exams universities fees loans debt banks crypto cash gold inflation pensions retirement immigration borders ' +
  'language history statues museums tourism airports highways speed limits helmets guns hunting free speech ' +
  'censorship news journalism advertising billionaires charity religion science philosophy ethics future'
).split(' ');

/** How many of the big topic's roots one user wrote (the bench's user page). */
export const PROLIFIC_RESPONSES = 20_000;

/**
 * 100,000 topics / 1,000,000 responses / 2,000,000 upvotes by default, in one transaction of
 * prepared inserts, with every stored counter (score, responses_count and by type, comment_count, hot,
 * points) equal to what a recount gives, the citations of the big topic's roots, and the
 * FTS indexes (kept by the schema's triggers). Deterministic.
 */
export function seedLarge(
  db: Db,
  sizes: LargeSeedSizes = largeSeedSizes(),
): { bigTopicId: string; prolificUid: string; users: number; sources: number; counts: LargeSeedSizes } {
  const { topics: T, responses: R, upvotes: V, bigTopicRoots } = sizes;
  const USERS = 1000;
  const SOURCES = 1000;
  const base = Date.UTC(2025, 0, 1);
  const uid = (i: number) => `u${i}`;
  const topicId = (i: number) => (i === 0 ? 'bench-topic-big' : `bench-topic-${i}`);
  const responseId = (j: number) => `bench-r-${j}`;
  let rng = 42;
  const random = () => {
    rng = (rng * 1103515245 + 12345) % 2147483648;
    return rng / 2147483648;
  };

  // Responses: the first `bigTopicRoots` are roots of topic 0; the others go round the other
  // topics, two of three answering the response before them in the same topic.
  const others = Math.max(1, T - 1);
  const rTopic = new Int32Array(R);
  const rParent = new Int32Array(R).fill(-1);
  const rCreator = new Int32Array(R);
  const topicResponses = new Int32Array(T);
  // By type: [for, against, neutral] of topic i at 3i..3i+2 (response j is of type j % 3).
  const topicTypes = new Int32Array(T * 3);
  const commentCount = new Int32Array(R);
  for (let j = 0; j < R; j++) {
    // The big topic's first PROLIFIC_RESPONSES roots are one user's (a user page of that many).
    rCreator[j] = j < Math.min(PROLIFIC_RESPONSES, bigTopicRoots) ? 0 : (j * 7) % USERS;
    if (j < bigTopicRoots || T === 1) {
      rTopic[j] = 0;
    } else {
      const k = j - bigTopicRoots;
      rTopic[j] = 1 + (k % others);
      const round = Math.floor(k / others);
      if (round % 3 !== 0) {
        rParent[j] = j - others;
        commentCount[j - others]!++;
      }
    }
    topicResponses[rTopic[j]!]!++;
    topicTypes[rTopic[j]! * 3 + (j % 3)]!++;
  }
  // Upvotes: each voter votes on distinct targets; one in ten on a topic, the rest on responses.
  const perVoter = Math.ceil(V / USERS);
  const topicScore = new Int32Array(T);
  const responseScore = new Int32Array(R);
  const points = new Int32Array(USERS + 1);
  const topicCreator = (i: number) => (i * 13) % USERS;
  const votes: [number, 0 | 1, number][] = [];
  let made = 0;
  for (let v = 0; v < USERS && made < V; v++) {
    for (let k = 0; k < perVoter && made < V; k++, made++) {
      if (k % 10 === 0 && T > perVoter) {
        const t = (v * 31 + k * 7) % T;
        votes.push([v, 0, t]);
        topicScore[t]!++;
        if (topicCreator(t) !== v) points[topicCreator(t)]!++;
      } else {
        const r = (v * 7919 + k * 104729) % R;
        votes.push([v, 1, r]);
        responseScore[r]!++;
        if (rCreator[r] !== v) points[rCreator[r]!]!++;
      }
    }
  }

  const insertUser = db.prepare('INSERT INTO users (uid, display_name, email, points, created_at, seq) VALUES (?, ?, NULL, ?, ?, ?)');
  const insertTopic = db.prepare(
    `INSERT INTO topics (id, title, category, creator_uid, created_at, score, responses_count, responses_for, responses_against,
                         responses_neutral, hot, seq) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const insertResponse = db.prepare(`
    INSERT INTO responses (id, topic_id, parent_response_id, quoted_response_id, type, content, creator_uid, created_at, updated_at,
                           score, comment_count, seq)
    VALUES (?, ?, ?, NULL, ?, ?, ?, ?, ?, ?, ?, ?)`);
  const insertVote = db.prepare(`
    INSERT INTO votes (voter_uid, target_type, target_id, target_creator_uid, topic_id, created_at, updated_at, deleted, seq)
    VALUES (?, ?, ?, ?, ?, ?, ?, 0, ?)`);
  const insertSource = db.prepare('INSERT INTO sources (id, url, name, description, created_at) VALUES (?, ?, ?, NULL, ?)');
  const insertCitation = db.prepare(
    'INSERT INTO response_sources (response_id, position, source_id, name, description) VALUES (?, ?, ?, ?, NULL)',
  );
  let seq = 0;
  const iso = (ms: number) => new Date(ms).toISOString();
  db.transaction(() => {
    const now = iso(base);
    for (let u = 0; u < USERS; u++) insertUser.run(uid(u), `User ${u}`, points[u], now, ++seq);
    insertUser.run('bench', 'Bench', 0, now, ++seq);
    for (let i = 0; i < T; i++) {
      const words = Array.from({ length: 5 }, () => SEED_WORDS[Math.floor(random() * SEED_WORDS.length)]!);
      const created = iso(base + i * 60_000);
      const count = topicResponses[i]!;
      insertTopic.run(
        topicId(i),
        `${words.join(' ')} ${i}`,
        CATEGORIES[i % CATEGORIES.length],
        uid(topicCreator(i)),
        created,
        topicScore[i],
        count,
        topicTypes[i * 3],
        topicTypes[i * 3 + 1],
        topicTypes[i * 3 + 2],
        hotScore(topicScore[i]!, count, created),
        ++seq,
      );
    }
    for (let s = 0; s < SOURCES; s++) insertSource.run(`bench-s-${s}`, `https://example.org/paper/${s}`, `Paper ${s}`, now);
    const types = ['for', 'against', 'neutral'];
    const filler = 'because the evidence shows ' + 'lorem ipsum '.repeat(6);
    for (let j = 0; j < R; j++) {
      const created = iso(base + j * 1000);
      const parent = rParent[j]!;
      insertResponse.run(
        responseId(j),
        topicId(rTopic[j]!),
        parent < 0 ? null : responseId(parent),
        types[j % 3],
        `Argument ${j} ${SEED_WORDS[j % SEED_WORDS.length]} ${filler}`,
        uid(rCreator[j]!),
        created,
        created,
        responseScore[j],
        commentCount[j],
        ++seq,
      );
      // The big topic's roots cite one or two sources each (the page's sources come in one query).
      if (j < bigTopicRoots) {
        insertCitation.run(responseId(j), 0, `bench-s-${j % SOURCES}`, `Paper ${j % SOURCES}`);
        if (j % 2 === 0) insertCitation.run(responseId(j), 1, `bench-s-${(j + 7) % SOURCES}`, null);
      }
    }
    for (const [v, kind, target] of votes) {
      const created = iso(base + target * 1000);
      if (kind === 0) insertVote.run(uid(v), 'topic', topicId(target), uid(topicCreator(target)), topicId(target), created, created, ++seq);
      else
        insertVote.run(uid(v), 'response', responseId(target), uid(rCreator[target]!), topicId(rTopic[target]!), created, created, ++seq);
    }
    db.prepare("UPDATE meta SET value = ? WHERE key = 'seq'").run(seq);
  })();
  db.pragma('optimize');
  return { bigTopicId: topicId(0), prolificUid: uid(0), users: USERS, sources: SOURCES, counts: { ...sizes, upvotes: made } };
}

/**
 * `count` cursors spread over a topic's roots, each the one GET /api/responses answers for the root
 * before it: the varied roots row reads a page from each in turn, so no page is the one before.
 */
export function rootCursors(db: Db, topicId: string, count: number): string[] {
  const positions = db
    .prepare<[string], ResponsePosition>(
      'SELECT created_at, id FROM responses WHERE topic_id = ? AND parent_response_id IS NULL AND deleted = 0 ORDER BY created_at, id',
    )
    .all(topicId);
  const last = Math.max(0, positions.length - 1 - RESPONSES_ANSWER_MAX);
  return Array.from({ length: count }, (_, i) => encodeCursor(positions[Math.round((last * i) / Math.max(1, count - 1))]!));
}
