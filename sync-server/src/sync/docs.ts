// Server rows as replication documents (shared/sync-protocol.ts), in one place,
// plus the comparison on user-controlled fields that push uses for conflicts.
import type { Category } from '../../../shared/constants.js';
import {
  voteDocId,
  type NotificationDoc,
  type ProfileDoc,
  type ResponseDoc,
  type TopicDoc,
  type VoteDoc,
} from '../../../shared/sync-protocol.js';
import type { Store } from '../store/store.js';
import { toNotification, type NotificationRow } from '../store/notifications-repo.js';
import type { ResponseRow } from '../store/responses-repo.js';
import type { TopicRow } from '../store/topics-repo.js';
import type { UserRow } from '../store/users-repo.js';
import type { VoteRow } from '../store/votes-repo.js';

export function topicDoc(row: TopicRow): TopicDoc {
  return {
    id: row.id,
    title: row.title,
    category: row.category as Category,
    creator_uid: row.creator_uid,
    username: row.username,
    created_at: row.created_at,
    score: row.score,
    responses_count: row.responses_count,
    seq: row.seq,
    _deleted: row.deleted === 1,
  };
}

export function responseDoc(store: Store, row: ResponseRow): ResponseDoc {
  return {
    id: row.id,
    topic_id: row.topic_id,
    parent_response_id: row.parent_response_id,
    // The raw quote id: the client joins the quoted text from its own copy of the topic.
    quoted_response_id: row.quoted_response_id,
    type: row.type,
    content: row.content,
    sources: store.sources.forResponse(row.id).map(({ url, name, description }) => ({ url, name, description })),
    creator_uid: row.creator_uid,
    username: row.username,
    created_at: row.created_at,
    updated_at: row.updated_at,
    score: row.score,
    comment_count: row.comment_count,
    seq: row.seq,
    _deleted: row.deleted === 1,
  };
}

export function voteDoc(row: VoteRow): VoteDoc {
  return {
    id: voteDocId(row.target_type, row.target_id),
    target_type: row.target_type,
    target_id: row.target_id,
    topic_id: row.topic_id,
    // A taken-back vote is a live document with upvoted=false, so the toggle replicates both ways.
    upvoted: row.deleted === 0,
    updated_at: row.updated_at,
    seq: row.seq,
    _deleted: false,
  };
}

export function notificationDoc(row: NotificationRow): NotificationDoc {
  return { ...toNotification(row), seq: row.seq, _deleted: row.deleted === 1 };
}

export function profileDoc(row: UserRow): ProfileDoc {
  return {
    id: row.uid,
    display_name: row.display_name,
    receive_weekly_summary: row.receive_weekly_summary === 1,
    points: row.points,
    seq: row.seq,
    _deleted: false,
  };
}

export { normalizeSources, sameUserFields } from '../../../shared/rules/sync-fields.js';
