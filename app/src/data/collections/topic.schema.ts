// Local schema of `topics` (public database). Version 6: seen_at (the device keeps its working
// set of topics, not the site: working-set.ts); version 5: server_base (the user's own
// writes go through the outbox, outbox.ts); version 4: opinion groups;
// version 3 (topic.schema.v3.ts): moderation; version 2
// (topic.schema.v2.ts): the stance counts;
// version 1 (topic.schema.v1.ts) had one `category` string and the local-only flags;
// version 0 (topic.schema.v0.ts) kept a `categories` list.
import { withServerBaseOfUnsent } from './server-base.js';
import { toTypedRxJsonSchema, type ExtractDocumentTypeFromTypedRxJsonSchema, type MigrationStrategies, type RxJsonSchema } from 'rxdb';
import { CATEGORIES } from '../../../../shared/constants.js';

const topicSchemaLiteral = {
  title: 'topics',
  version: 6,
  primaryKey: 'id',
  type: 'object',
  properties: {
    id: { type: 'string', maxLength: 64 },
    title: { type: 'string' },
    category: { type: 'string', enum: [...CATEGORIES] },
    creator_uid: { type: 'string' },
    username: { type: ['string', 'null'] },
    created_at: { type: 'string', maxLength: 40 },
    score: { type: 'integer' },
    responses_count: { type: 'integer' },
    // Participants by current stance, and how many changed their mind here (the server counts them).
    stance_agree: { type: 'integer' },
    stance_disagree: { type: 'integer' },
    stance_unsure: { type: 'integer' },
    minds_changed: { type: 'integer' },
    // Moderation: locked takes no new responses; while `moderation` is set the title is
    // the replacement text the server sends (the author's own is never synced).
    locked: { type: 'boolean' },
    moderation: { type: ['string', 'null'], enum: ['removed', 'hidden', null] },
    moderation_reason: { type: ['string', 'null'] },
    // Opinion groups: the server's summary as JSON text (shared/rules/opinion-groups.ts), null until computed.
    opinion_groups: { type: ['string', 'null'] },
    seq: { type: 'integer' },
    // Local only: a user action not yet confirmed by the server (stripped before a push).
    pending: { type: 'boolean' },
    // Local only: deleted here, hidden at once, a tombstone once the server confirms.
    pending_delete: { type: 'boolean' },
    // Local only, while pending: the server's state the change was made on (the push's assumed state).
    server_base: { type: 'object' },
    // Local only: when a screen last showed it (ms since 1970; 0: never). The least recently seen
    // topics leave the device first when it holds more than its storage budget (working-set.ts).
    seen_at: { type: 'integer', minimum: 0, maximum: 1e15, multipleOf: 1 },
  },
  required: [
    'id',
    'title',
    'category',
    'creator_uid',
    'created_at',
    'score',
    'responses_count',
    'stance_agree',
    'stance_disagree',
    'stance_unsure',
    'minds_changed',
    'locked',
    'moderation',
    'moderation_reason',
    'seq',
    'pending',
    'pending_delete',
    'seen_at',
  ],
  // `pending` is indexed for the pending-changes count the status bar keeps live.
  // `seen_at` orders the eviction of the least recently seen.
  indexes: ['created_at', 'pending', 'seen_at'],
} as const;

export const topicSchemaTyped = toTypedRxJsonSchema(topicSchemaLiteral);
export type TopicDocType = ExtractDocumentTypeFromTypedRxJsonSchema<typeof topicSchemaTyped>;
export const topicSchema: RxJsonSchema<TopicDocType> = topicSchemaLiteral;

export const topicMigrations: MigrationStrategies = {
  // v0 → v1: the list of categories became one category (the server keeps one).
  1: (old: { categories?: string[] } & Record<string, unknown>) => {
    const { categories, ...rest } = old;
    return { ...rest, category: categories?.[0] ?? 'Other', pending: false, pending_delete: false };
  },
  // v1 → v2: stance counts. 0 is the truth for a stored topic: the server's counts start at 0 for
  // every existing topic, and any later change comes with a new seq, so the next pull brings it.
  2: (old: Record<string, unknown>) => ({ ...old, stance_agree: 0, stance_disagree: 0, stance_unsure: 0, minds_changed: 0 }),
  // v2 → v3: moderation. Nothing was moderated before; a later moderation comes with a new seq.
  3: (old: Record<string, unknown>) => ({ ...old, locked: false, moderation: null, moderation_reason: null }),
  // v3 → v4: opinion groups. Null until the server's summary comes with the topic's next seq.
  4: (old: Record<string, unknown>) => ({ ...old, opinion_groups: null }),
  // v4 → v5: server_base, set from now on when a stored topic first gets a pending change;
  // a change the previous app had not sent gets one here (server-base.ts).
  5: withServerBaseOfUnsent,
  // v5 → v6: seen_at. A device that kept the whole site has seen none of it yet: its budget evicts
  // them first (never an unsent change or the user's own).
  6: (old: Record<string, unknown>) => ({ ...old, seen_at: 0 }),
};
