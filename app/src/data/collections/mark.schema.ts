// Local schema of `marks` (user database): the user's blocks, follows and reports in one
// collection, since each is a small private document per target (a user, a topic, a reported item)
// and every open collection counts toward the 13 RxDB's open-source build allows on a page. The
// server and the wire keep three sync collections; `kind` names the one a document belongs to, and
// the id is `${kind}:${wire id}` (local-docs.ts `toLocal`/`toWire`), unique across kinds.
// A block or a follow taken back stays a document (blocked=false, following=false), never an RxDB
// tombstone, so the change still replicates; a report is never taken back (only a first report the
// server refused is removed locally). Private: it lives in the user's own database only.
import { toTypedRxJsonSchema, type ExtractDocumentTypeFromTypedRxJsonSchema, type MigrationStrategies, type RxJsonSchema } from 'rxdb';
import { REPORT_REASONS, REPORT_STATUSES, REPORT_TARGET_TYPES } from '../../../../shared/constants.js';

/** The sync collections kept as kinds of `marks`. */
export const MARK_KINDS = ['blocks', 'follows', 'reports'] as const;
export type MarkKind = (typeof MARK_KINDS)[number];

const markSchemaLiteral = {
  title: 'marks',
  version: 0,
  primaryKey: 'id',
  type: 'object',
  properties: {
    // `${kind}:${wire id}`: 'reports:' and a report id of at most 160 (a block's uid is at most 128,
    // a followed topic's id 64).
    id: { type: 'string', maxLength: 168 },
    kind: { type: 'string', enum: [...MARK_KINDS] },
    updated_at: { type: 'string' },
    seq: { type: 'integer' },
    // blocks: the blocked user, their name as the server knows it (the device's copy until the
    // server's arrives), whether blocked now.
    blocked_uid: { type: 'string' },
    display_name: { type: ['string', 'null'] },
    blocked: { type: 'boolean' },
    // follows: the topic, its title as the server knows it (null: gone), whether followed now.
    topic_id: { type: 'string' },
    title: { type: ['string', 'null'] },
    following: { type: 'boolean' },
    // reports: the reported item, why, and whether a moderator handled it.
    target_type: { type: 'string', enum: [...REPORT_TARGET_TYPES] },
    target_id: { type: 'string' },
    reason: { type: 'string', enum: [...REPORT_REASONS] },
    note: { type: ['string', 'null'] },
    status: { type: 'string', enum: [...REPORT_STATUSES] },
    created_at: { type: 'string' },
    // Local only: a change not yet confirmed by the server (stripped before a push).
    pending: { type: 'boolean' },
    // Local only, while pending: the server's state the change was made on (the push's assumed state).
    server_base: { type: 'object' },
  },
  required: ['id', 'kind', 'updated_at', 'seq', 'pending'],
} as const;

export const markSchemaTyped = toTypedRxJsonSchema(markSchemaLiteral);
export type MarkDocType = ExtractDocumentTypeFromTypedRxJsonSchema<typeof markSchemaTyped>;
export const markSchema: RxJsonSchema<MarkDocType> = markSchemaLiteral;
export const markMigrations: MigrationStrategies = {};

/** A mark of one kind: the fields every mark has, its kind's own (`optional`: nullable ones the server may omit). */
type MarkOf<K extends MarkKind, Own extends keyof MarkDocType, Optional extends keyof MarkDocType = never> = { kind: K } & Required<
  Pick<MarkDocType, 'id' | 'updated_at' | 'seq' | 'pending' | Own>
> &
  Pick<MarkDocType, 'server_base' | Optional>;

export type BlockMark = MarkOf<'blocks', 'blocked_uid' | 'blocked', 'display_name'>;
export type FollowMark = MarkOf<'follows', 'topic_id' | 'following', 'title'>;
export type ReportMark = MarkOf<'reports', 'target_type' | 'target_id' | 'reason' | 'status' | 'created_at', 'note'>;

/** A mark's id: its kind before the wire id, so a user's uid and a topic's id never meet. */
export const markId = (kind: MarkKind, wireId: string) => `${kind}:${wireId}`;
