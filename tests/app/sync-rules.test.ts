// The pure rules of the data layer: what a push must send, how unconfirmed
// votes and responses change the counts shown, and offline title search.
import { describe, expect, it } from 'vitest';
import type { ResponseDocType } from '../../app/src/data/collections/response.schema.js';
import type { VoteDocType } from '../../app/src/data/collections/vote.schema.js';
import { decide } from '../../app/src/data/push-handler.js';
import { localResponse } from '../fixtures/local-docs.js';
import { hiddenByPendingDeletes, responsesCountDelta, voteDelta } from '../../app/src/data/views.js';

const vote = (overrides: Partial<VoteDocType>): VoteDocType => ({
  id: 'topic_t',
  target_type: 'topic',
  target_id: 't',
  topic_id: 't',
  upvoted: true,
  updated_at: '',
  seq: 0,
  pending: true,
  confirmed_upvoted: false,
  ...overrides,
});

const response = (id: string, overrides: Partial<ResponseDocType> = {}): ResponseDocType =>
  localResponse(id, { content: id, created_at: id, updated_at: id, ...overrides });

describe('decide: what a local change needs from the server', () => {
  it.each([
    ['a vote toggled on and off before any push', 'votes', { upvoted: false, pending: true }, undefined, 'resolve'],
    ['a vote back to what the server has', 'votes', { upvoted: true, pending: true }, { upvoted: true }, 'resolve'],
    ['a new vote', 'votes', { upvoted: true, pending: true }, undefined, 'send'],
    ['a vote taken back', 'votes', { upvoted: false, pending: true }, { upvoted: true }, 'send'],
    ['a reply written and deleted offline', 'responses', { content: 'x', pending: true, pending_delete: true }, undefined, 'resolve'],
    ['a new reply', 'responses', { content: 'x', pending: true, pending_delete: false }, undefined, 'send'],
    [
      'an edit back to the server text',
      'responses',
      { content: 'x', sources: [], pending: true },
      { content: 'x', sources: [] },
      'resolve',
    ],
    ['an edit', 'responses', { content: 'y', sources: [], pending: true }, { content: 'x', sources: [] }, 'send'],
    ['an eviction (no user action)', 'responses', { content: 'x', pending: false, _deleted: true }, { content: 'x' }, 'skip'],
    ['a read notification', 'notifications', { is_read: true, pending: true }, { is_read: false }, 'send'],
  ] as const)('%s → %s', (_name, collection, next, assumed, expected) => {
    expect(decide(collection, { id: 'x', ...next }, assumed ? { id: 'x', ...assumed } : undefined).kind).toBe(expected);
  });

  it('settles a made-and-deleted reply as a tombstone and a settled vote with its confirmed state', () => {
    expect(decide('responses', { id: 'r', pending: true, pending_delete: true }, undefined)).toEqual({
      kind: 'resolve',
      doc: { id: 'r', pending: false, pending_delete: true, _deleted: true },
    });
    expect(decide('votes', { id: 'v', upvoted: false, pending: true }, undefined)).toMatchObject({
      doc: { upvoted: false, confirmed_upvoted: false, pending: false },
    });
  });
});

describe('optimistic counts', () => {
  it.each([
    ['no vote', undefined, 5, 0],
    ['a new vote not yet on the server', vote({ seq: 0 }), 5, 1],
    ['a confirmed vote the target already counts', vote({ seq: 4, confirmed_upvoted: true, pending: false }), 5, 0],
    ['a confirmed vote the target does not count yet', vote({ seq: 6, confirmed_upvoted: true, pending: false }), 5, 1],
    ['a vote taken back, target still counting it', vote({ seq: 4, upvoted: false, confirmed_upvoted: true }), 5, -1],
    ['a vote taken back and confirmed, target not yet recounted', vote({ seq: 6, upvoted: false, confirmed_upvoted: false }), 5, -1],
  ])('%s → %i', (_name, v, targetSeq, expected) => {
    expect(voteDelta(v, targetSeq)).toBe(expected);
  });

  it('hides a pending delete with its subtree and counts responses the server has not seen', () => {
    const docs = [
      response('a'),
      response('b', { parent_response_id: 'a', pending: true, pending_delete: true }),
      response('c', { parent_response_id: 'b' }),
      response('d', { parent_response_id: 'c', seq: 0, pending: true }),
      response('e', { seq: 0, pending: true }),
    ];
    expect([...hiddenByPendingDeletes(docs)].sort()).toEqual(['b', 'c', 'd']);
    const pending = docs.filter((d) => d.pending);
    // +1 for d and e (made here), −1 for b and c (server's, now hidden), −1 for d (hidden): net −1.
    expect(responsesCountDelta(pending, () => docs).get('t')).toBe(-1);
  });
});
