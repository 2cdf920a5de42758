// The topic page's tree (big debates): one build per emission of the topic's documents or
// the user's votes, grouped by parent, keeping every view (and list) that did not change, so a vote
// gives a new object to the voted response only and memoised rows skip rendering.
import { describe, expect, it } from 'vitest';
import type { ResponseDocType } from '../../app/src/data/collections/response.schema.js';
import type { VoteDocType } from '../../app/src/data/collections/vote.schema.js';
import { localResponse } from '../fixtures/local-docs.js';
import { createTopicTreeBuilder, responseViews, type TopicTreeView, type VoteMap } from '../../app/src/data/views.js';

const doc = (id: string, overrides: Partial<ResponseDocType> = {}): ResponseDocType =>
  localResponse(id, { created_at: `2026-01-01T00:00:0${id.slice(-1)}.000Z`, updated_at: '', ...overrides });

const upvote = (responseId: string): VoteDocType => ({
  id: `response_${responseId}`,
  target_type: 'response',
  target_id: responseId,
  topic_id: 't',
  upvoted: true,
  updated_at: '',
  seq: 0,
  pending: true,
  confirmed_upvoted: false,
});

/** What the page reads of one emission (the lists are built on demand), read before the next emission. */
const shown = (tree: TopicTreeView) => ({ roots: tree.children(null), r1: tree.children('r1'), all: tree.all() });

const votes = (...list: VoteDocType[]): VoteMap => new Map(list.map((v) => [v.id, v]));

describe('createTopicTreeBuilder', () => {
  const docs = [
    doc('r3', { parent_response_id: 'r1' }),
    doc('r1', { comment_count: 2 }),
    doc('r2', { quoted_response_id: 'r1' }),
    doc('r4', { parent_response_id: 'r1' }),
  ];

  it('groups the views by parent, oldest first, with the quote joined', () => {
    const tree = createTopicTreeBuilder()(docs, votes());
    expect(tree.all().map((r) => r.id)).toEqual(['r1', 'r2', 'r3', 'r4']);
    expect(tree.children(null).map((r) => r.id)).toEqual(['r1', 'r2']);
    expect(tree.children('r1').map((r) => r.id)).toEqual(['r3', 'r4']);
    expect(tree.children('r2')).toEqual([]);
    expect(tree.children(null)[1]!.quoted_response).toEqual({ id: 'r1', content: 'text of r1', username: null, creator_uid: 'u' });
    expect(tree.all()).toEqual(responseViews(docs, votes()));
  });

  it('a vote gives a new view to the voted response only; the other views and lists keep their identity', () => {
    const build = createTopicTreeBuilder();
    const before = shown(build(docs, votes()));
    const after = build(docs, votes(upvote('r3')));
    const voted = after.children('r1')[0]!;
    expect(voted).toMatchObject({ id: 'r3', score: 1, user_has_upvoted: true });
    expect(voted).not.toBe(before.r1[0]);
    expect(after.children('r1')[1]).toBe(before.r1[1]);
    expect(after.children(null)).toBe(before.roots);
    expect(after.all()).not.toBe(before.all);
  });

  it('an emission that changes nothing shown returns the same lists', () => {
    const build = createTopicTreeBuilder();
    const before = shown(build(docs, votes()));
    const again = build([...docs], votes());
    expect(again.all()).toBe(before.all);
    expect(again.children(null)).toBe(before.roots);
  });

  it('a changed document (same id, new revision object) gets a new view, and so does a response quoting it', () => {
    const build = createTopicTreeBuilder();
    const before = shown(build(docs, votes()));
    const edited = docs.map((d) => (d.id === 'r1' ? { ...d, content: 'edited' } : d));
    const after = build(edited, votes());
    const [r1, r2] = after.children(null);
    expect(r1).toMatchObject({ id: 'r1', content: 'edited' });
    expect(r2!.quoted_response?.content).toBe('edited');
    expect(r2).not.toBe(before.roots[1]);
    expect(after.children('r1')).toBe(before.r1);
  });

  it('builds only the lists asked for', () => {
    const tree = createTopicTreeBuilder()(docs, votes());
    expect(tree.children('r1')).toBe(tree.children('r1'));
    expect(tree.children('nobody')).toEqual([]);
  });

  it('a pending delete hides the response with its subtree and lowers its parent’s count', () => {
    const build = createTopicTreeBuilder();
    const after = build(
      docs.map((d) => (d.id === 'r3' ? { ...d, pending_delete: true, pending: true } : d)),
      votes(),
    );
    expect(after.children('r1').map((r) => r.id)).toEqual(['r4']);
    expect(after.children(null)[0]!.comment_count).toBe(1);
  });
});
