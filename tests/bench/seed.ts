// Fast bench seeding: direct SQL inserts in one transaction (no domain rules,
// no change feed), with seq stamped in order like the server would.
import { hotScore } from '../../shared/rules/hot.js';
import type { Db } from '../../sync-server/src/store/connection.js';

export function seedBench(db: Db, topics: number, responsesInOneTopic: number): { bigTopicId: string } {
  const insertTopic = db.prepare(
    'INSERT INTO topics (id, title, category, creator_uid, created_at, responses_count, hot, seq) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
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
