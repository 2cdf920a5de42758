// The screens' view of the local-first store (app/src/data, issue 3). Screens and
// hooks depend on this interface only; bind-store.ts adapts the data layer's
// public API to it, so a change there touches one file.
import type { Category, ResponseType, Sort } from '../../../shared/constants';
import type { Response, Topic } from '../../../shared/types';

export interface Unsubscribable { unsubscribe(): void }
export interface Subscribable<T> { subscribe(next: (value: T) => void, error?: (e: unknown) => void): Unsubscribable }

export interface TopicQuery { sort: Sort; category: string | null; limit: number }
export interface NewSource { url: string; name?: string | null; description?: string | null }
export interface NewResponse {
  topicId: string;
  parentResponseId: string | null;
  type: ResponseType;
  content: string;
  quotedResponseId: string | null;
  sources: NewSource[];
}
export interface ResponseEdit { content: string; quotedResponseId: string | null; sources: NewSource[] }

/** Replication state for the header (never blocks the UI). */
export interface SyncState { online: boolean; syncing: boolean; pending: number; lastError: string | null; lastSyncedAt: string | null }
/** A local write the server refused or overruled, kept until fixed or discarded. */
export interface SyncIssue { id: string; kind: 'rejected' | 'conflict'; action: string; error: string; itemId: string }

export interface ScreenStore {
  syncState(): Subscribable<SyncState>;
  syncIssues(): Subscribable<SyncIssue[]>;
  retryIssue(id: string): Promise<void>;
  /** Unsent text kept on this device (signed-in users only). */
  loadDraft(key: string): Promise<string | null>;
  saveDraft(key: string, text: string): Promise<void>;
  deleteDraft(key: string): Promise<void>;
  discardIssue(id: string): Promise<void>;
  topics(query: TopicQuery): Subscribable<Topic[]>;
  searchTopics(text: string, sort: Sort): Subscribable<Topic[]>;
  /** undefined while unknown, null when the topic does not exist. */
  topic(topicId: string): Subscribable<Topic | null | undefined>;
  /** Root responses (parentId null) or the direct replies of a response. */
  replies(topicId: string, parentId: string | null): Subscribable<Response[]>;
  /** Ids from the root down to the response's parent. */
  ancestors(topicId: string, responseId: string): Promise<string[]>;
  searchResponses(topicId: string, text: string): Promise<Response[]>;
  /** Sources already cited in the topic whose URL or name contains the text. */
  searchSources(topicId: string, text: string): Promise<NewSource[]>;
  openTopic(topicId: string): void | Promise<void>;
  createTopic(input: { title: string; category: Category }): Promise<{ id: string }>;
  deleteTopic(topicId: string): Promise<void>;
  createResponse(input: NewResponse): Promise<{ id: string }>;
  editResponse(responseId: string, edit: ResponseEdit): Promise<void>;
  deleteResponse(responseId: string): Promise<void>;
  toggleVote(target: { type: 'topic' | 'response'; id: string; creatorUid: string }): Promise<void>;
}

let current: ScreenStore | null = null;
export function provideStore(store: ScreenStore): void {
  current = store;
}
export function getStore(): ScreenStore {
  if (!current) throw new Error('The data store is not ready.');
  return current;
}
