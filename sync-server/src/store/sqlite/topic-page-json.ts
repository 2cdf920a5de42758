// A search page's REST JSON from each topic's JSON kept by its seq. A search whose word, sort and
// size vary is a page no page cache holds, but its topics recur: the pages of the server bench's
// 133 words × 3 sorts × 4 sizes hold 71,820 rows of only 6,332 topics. SQLite wrote each row's JSON
// again for every page (its B-tree reads, json_object, and json_group_array: about 160 µs of a page
// of 45 topics on this machine, the largest part of such a search's CPU); a kept topic's text is
// joined in about a tenth of that.
//
// Why a kept text is never stale: every change to a topic row stamps a new seq (docs/SYNC.md),
// a creator's new name included (users.ts restamps their topics), and the title index holds each
// topic's seq as of the version the search was answered at (title-index.ts seqOf). A text is used
// only while its seq is the index's. A signed-in reader's page is the same text with their own
// votes marked, read per page.
import type { Db } from './connection.js';

const TRUE_OR_FALSE = (condition: string) => `json(CASE WHEN ${condition} THEN 'true' ELSE 'false' END)`;

/** A topic as the REST answer shows it signed out (store/rows.ts toTopic), as SQLite's JSON. */
const SIGNED_OUT_TOPIC_JSON = `json_object(
  'id', t.id, 'title', t.title, 'categories', json_array(t.category), 'created_at', t.created_at,
  'username', u.display_name, 'creator_uid', t.creator_uid, 'score', t.score,
  'user_has_upvoted', json('false'), 'user_has_downvoted', json('false'),
  'responses_count', t.responses_count, 'locked', ${TRUE_OR_FALSE('t.locked = 1')},
  'moderation', t.moderation, 'moderation_reason', t.moderation_reason)`;

/** How many topics' texts are kept (about 300–500 bytes each): past it they are dropped and kept again as pages ask. */
export const TOPIC_TEXTS_KEPT = 20_000;

/** The signed-out flags in a kept text; a reader's own vote replaces them (no title or reason holds them unescaped). */
const NO_VOTE = '"user_has_upvoted":false,"user_has_downvoted":false';
const UPVOTED = '"user_has_upvoted":true,"user_has_downvoted":false';
const DOWNVOTED = '"user_has_upvoted":false,"user_has_downvoted":true';

export interface TopicPageJson {
  /** The page of these topics (pks, in order, every one a live topic the title index answered) as JSON text for `viewer`. */
  page(pks: number[], viewer: string | null): string;
  /** How many topics' texts are kept now (tests). */
  kept(): number;
}

/**
 * `seqOf`: a topic's seq as the title index last applied it (title-index.ts), read after the
 * search that chose `pks`; `keep`: how many texts to keep at most.
 */
export function createTopicPageJson(db: Db, seqOf: (pk: number) => number | undefined, keep = TOPIC_TEXTS_KEPT): TopicPageJson {
  const rows = db
    .prepare<[string], [number, number, string]>(
      `SELECT t.pk, t.seq, ${SIGNED_OUT_TOPIC_JSON}
       FROM json_each(?) j JOIN topics t ON t.pk = j.value LEFT JOIN users u ON u.uid = t.creator_uid`,
    )
    .raw();
  const votes = db
    .prepare<{ pks: string; viewer: string }, [number, number]>(
      `SELECT t.pk, v.value
       FROM json_each(@pks) j JOIN topics t ON t.pk = j.value
       JOIN votes v ON v.voter_uid = @viewer AND v.target_type = 'topic' AND v.target_id = t.id AND v.deleted = 0 AND v.value IN (1, -1)`,
    )
    .raw();
  const texts = new Map<number, { seq: number; json: string }>();

  /** Each topic's text in the page's order, kept or read; a pk with no row (gone since, by another process) is left out, as a join would. */
  const textsOf = (pks: number[]): { pk: number; json: string }[] => {
    const out: { pk: number; json: string | undefined }[] = pks.map((pk) => {
      const kept = texts.get(pk);
      return { pk, json: kept && kept.seq === seqOf(pk) ? kept.json : undefined };
    });
    const missing = out.filter((entry) => entry.json === undefined).map((entry) => entry.pk);
    if (missing.length > 0) {
      // Past the bound the texts go all at once: a cycle of pages wider than the bound then still
      // finds most of its texts between two clears, which dropping the oldest one at a time would not.
      if (texts.size + missing.length > keep) texts.clear();
      const read = new Map<number, string>();
      for (const [pk, seq, json] of rows.all(JSON.stringify(missing))) {
        read.set(pk, json);
        texts.set(pk, { seq, json });
      }
      for (const entry of out) entry.json ??= read.get(entry.pk);
    }
    return out.filter((entry): entry is { pk: number; json: string } => entry.json !== undefined);
  };

  return {
    page(pks, viewer) {
      if (pks.length === 0) return '[]';
      const page = textsOf(pks);
      const own = new Map<number, number>();
      if (viewer !== null) for (const [pk, value] of votes.all({ pks: JSON.stringify(pks), viewer })) own.set(pk, value);
      const marked = (pk: number, json: string) => {
        const value = own.get(pk);
        return value === undefined ? json : json.replace(NO_VOTE, value === 1 ? UPVOTED : DOWNVOTED);
      };
      return `[${page.map(({ pk, json }) => marked(pk, json)).join(',')}]`;
    },
    kept: () => texts.size,
  };
}
