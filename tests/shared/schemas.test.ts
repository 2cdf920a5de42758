// The zod request schemas shared by the app and the server: trimming, limits, unknown fields.
import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { CATEGORIES, LIMITS } from '../../shared/constants.js';
import { MSG } from '../../shared/messages.js';
import { idSchema, sourceInputSchema, sourcesSchema } from '../../shared/schemas/common.js';
import { createResponseSchema, updateResponseSchema } from '../../shared/schemas/responses.js';
import { createTopicSchema, listTopicsQuerySchema } from '../../shared/schemas/topics.js';
import { upvoteSchema } from '../../shared/schemas/upvotes.js';
import { preferencesSchema, usernameSchema } from '../../shared/schemas/users.js';

/** The first problem's message, or 'ok'. */
function firstError(schema: z.ZodType, value: unknown): string {
  const result = schema.safeParse(value);
  if (result.success) return 'ok';
  const issue = result.error.issues[0]!;
  return issue.code === 'unrecognized_keys' ? `unknown:${issue.keys.join(',')}` : issue.message;
}

describe('idSchema', () => {
  it.each([
    ['a', true],
    ['0192f0c2-7a1e-7d3b-9c1a-3f2e1d0c9b8a', true],
    ['A_b-9', true],
    ['x'.repeat(64), true],
    ['x'.repeat(65), false],
    ['', false],
    ['has space', false],
    ['slash/', false],
    ['dot.', false],
    ["quote'", false],
    ['émoji😀', false],
  ])('%j valid: %s', (id, valid) => {
    expect(idSchema.safeParse(id).success).toBe(valid);
  });
});

describe('createTopicSchema', () => {
  const valid = { title: 'Is nuclear power the answer?', categories: ['Science'] };

  it('trims the title', () => {
    expect(createTopicSchema.parse({ ...valid, title: '  padded title \n' }).title).toBe('padded title');
  });

  it('keeps a client id', () => {
    expect(createTopicSchema.parse({ ...valid, id: 'abc-123' }).id).toBe('abc-123');
  });

  it.each([
    ['valid', valid, 'ok'],
    ['every category', { ...valid, categories: ['Other'] }, 'ok'],
    ['title of exactly the limit', { ...valid, title: 't'.repeat(LIMITS.title) }, 'ok'],
    ['blank title', { ...valid, title: '   ' }, MSG.titleEmpty],
    ['empty title', { ...valid, title: '' }, MSG.titleEmpty],
    ['missing title', { categories: ['Science'] }, MSG.titleEmpty],
    ['numeric title', { ...valid, title: 42 }, MSG.titleEmpty],
    ['title over the limit', { ...valid, title: 't'.repeat(LIMITS.title + 1) }, `A topic title has at most ${LIMITS.title} characters.`],
    ['no category', { ...valid, categories: [] }, MSG.categoryMissing],
    ['missing categories', { title: 'x' }, MSG.categoryMissing],
    ['categories not a list', { ...valid, categories: 'Science' }, MSG.categoryMissing],
    ['two categories', { ...valid, categories: ['Science', 'Health'] }, 'A topic has exactly one category.'],
    ['unknown category', { ...valid, categories: ['Sports'] }, `A category must be one of: ${CATEGORIES.join(', ')}.`],
    ['lower-case category', { ...valid, categories: ['science'] }, `A category must be one of: ${CATEGORIES.join(', ')}.`],
    ['unknown field', { ...valid, colour: 'red' }, 'unknown:colour'],
    ['bad id', { ...valid, id: 'no spaces allowed' }, 'An id is 1–64 characters of letters, digits, "_" or "-".'],
    ['numeric id', { ...valid, id: 5 }, 'An id must be a string.'],
  ])('%s → %s', (_label, body, expected) => {
    expect(firstError(createTopicSchema, body)).toBe(expected);
  });
});

describe('listTopicsQuerySchema', () => {
  it('defaults to limit 20, offset 0, sort hot', () => {
    expect(listTopicsQuerySchema.parse({})).toEqual({ limit: 20, offset: 0, sort: 'hot' });
  });

  it.each([
    [{ limit: '1' }, 'ok'],
    [{ limit: '100' }, 'ok'],
    [{ limit: '0' }, 'limit must be between 1 and 100.'],
    [{ limit: '101' }, 'limit must be between 1 and 100.'],
    [{ limit: '-1' }, 'limit must be a whole number.'],
    [{ limit: '2.5' }, 'limit must be a whole number.'],
    [{ limit: 'ten' }, 'limit must be a whole number.'],
    [{ offset: '0' }, 'ok'],
    [{ offset: '-5' }, 'offset must be a whole number.'],
    [{ sort: 'new' }, 'ok'],
    [{ sort: 'top' }, 'ok'],
    [{ sort: 'best' }, 'sort must be one of: hot, new, top.'],
    [{ category: 'Health' }, 'ok'],
    [{ category: 'Sports' }, `category must be one of: ${CATEGORIES.join(', ')}.`],
    [{ search: 'x'.repeat(LIMITS.title + 1) }, 'search is too long.'],
  ])('%j → %s', (query, expected) => {
    expect(firstError(listTopicsQuerySchema, query)).toBe(expected);
  });

  it('turns limit and offset into numbers', () => {
    expect(listTopicsQuerySchema.parse({ limit: '5', offset: '10', sort: 'new' })).toEqual({ limit: 5, offset: 10, sort: 'new' });
  });
});

describe('sourceInputSchema', () => {
  it('trims url, name and description', () => {
    expect(sourceInputSchema.parse({ url: ' https://a.example/x ', name: ' Name ', description: ' Desc ' })).toEqual({
      url: 'https://a.example/x',
      name: 'Name',
      description: 'Desc',
    });
  });

  it.each([
    [{ url: 'https://example.com' }, 'ok'],
    [{ url: 'http://example.com/a?b=c#d' }, 'ok'],
    [{ url: 'https://example.com', name: null, description: null }, 'ok'],
    [{ url: '' }, 'A source needs a URL.'],
    [{ url: '   ' }, 'A source needs a URL.'],
    [{}, 'A source needs a URL.'],
    [{ url: 'javascript:alert(1)' }, 'A source URL must start with http:// or https://.'],
    [{ url: 'JAVASCRIPT:alert(1)' }, 'A source URL must start with http:// or https://.'],
    [{ url: 'data:text/html,<script>alert(1)</script>' }, 'A source URL must start with http:// or https://.'],
    [{ url: 'ftp://example.com/file' }, 'A source URL must start with http:// or https://.'],
    [{ url: 'example.com' }, 'A source URL must start with http:// or https://.'],
    [{ url: `https://example.com/${'a'.repeat(LIMITS.sourceUrl - 20)}` }, 'ok'],
    [{ url: `https://example.com/${'a'.repeat(LIMITS.sourceUrl)}` }, `A source URL has at most ${LIMITS.sourceUrl} characters.`],
    [{ url: 'https://example.com', name: 'n'.repeat(LIMITS.sourceName) }, 'ok'],
    [{ url: 'https://example.com', name: 'n'.repeat(LIMITS.sourceName + 1) }, `A source name has at most ${LIMITS.sourceName} characters.`],
    [
      { url: 'https://example.com', description: 'd'.repeat(LIMITS.sourceDescription + 1) },
      `A source description has at most ${LIMITS.sourceDescription} characters.`,
    ],
    [{ url: 'https://example.com', title: 'x' }, 'unknown:title'],
  ])('%j → %s', (source, expected) => {
    expect(firstError(sourceInputSchema, source)).toBe(expected);
  });

  it('allows at most 10 sources', () => {
    const source = (i: number) => ({ url: `https://example.com/${i}` });
    expect(sourcesSchema.safeParse(Array.from({ length: 10 }, (_, i) => source(i))).success).toBe(true);
    expect(
      firstError(
        sourcesSchema,
        Array.from({ length: 11 }, (_, i) => source(i)),
      ),
    ).toBe('A response has at most 10 sources.');
    expect(firstError(sourcesSchema, 'https://example.com')).toBe('Sources must be a list.');
  });
});

describe('createResponseSchema', () => {
  const valid = { content: 'I agree because...', type: 'for', topic_id: 'topic-1' };

  it('keeps content exactly as typed', () => {
    expect(createResponseSchema.parse({ ...valid, content: '  spaced\n\n out  ' }).content).toBe('  spaced\n\n out  ');
  });

  it('accepts an integer topic_id (as the product specification sends it) and turns it into a string id', () => {
    expect(createResponseSchema.parse({ ...valid, topic_id: 42 }).topic_id).toBe('42');
  });

  it.each([
    ['valid', valid, 'ok'],
    ['reply by parent only', { content: 'x', type: 'against', parent_response_id: 'r1' }, 'ok'],
    [
      'neutral with quote and sources',
      { ...valid, type: 'neutral', quoted_response_id: 'r2', sources: [{ url: 'https://a.example' }] },
      'ok',
    ],
    ['null quote', { ...valid, quoted_response_id: null }, 'ok'],
    ['content at the limit', { ...valid, content: 'c'.repeat(LIMITS.content) }, 'ok'],
    ['blank content', { ...valid, content: ' \n\t ' }, MSG.contentEmpty],
    ['empty content', { ...valid, content: '' }, MSG.contentEmpty],
    ['missing content', { type: 'for', topic_id: 't' }, MSG.contentEmpty],
    ['content not a string', { ...valid, content: ['x'] }, MSG.contentEmpty],
    [
      'content over the limit',
      { ...valid, content: 'c'.repeat(LIMITS.content + 1) },
      `A response has at most ${LIMITS.content} characters.`,
    ],
    ['unknown type', { ...valid, type: 'maybe' }, 'type must be one of: for, against, neutral.'],
    ['missing type', { content: 'x', topic_id: 't' }, 'type must be one of: for, against, neutral.'],
    ['neither topic nor parent', { content: 'x', type: 'for' }, 'A response needs a topic_id or a parent_response_id.'],
    ['negative topic id', { ...valid, topic_id: -1 }, 'An id is 1–64 characters of letters, digits, "_" or "-".'],
    ['fractional topic id', { ...valid, topic_id: 1.5 }, 'An id must be a string.'],
    [
      'eleven sources',
      { ...valid, sources: Array.from({ length: 11 }, (_, i) => ({ url: `https://a.example/${i}` })) },
      'A response has at most 10 sources.',
    ],
    ['javascript source', { ...valid, sources: [{ url: 'javascript:alert(1)' }] }, 'A source URL must start with http:// or https://.'],
    ['unknown field', { ...valid, colour: 'red' }, 'unknown:colour'],
    ['misspelt field', { ...valid, contnet: 'x' }, 'unknown:contnet'],
  ])('%s → %s', (_label, body, expected) => {
    expect(firstError(createResponseSchema, body)).toBe(expected);
  });
});

describe('updateResponseSchema', () => {
  it.each([
    [{ content: 'new text' }, 'ok'],
    [{ content: 'new text', quoted_response_id: null, sources: [] }, 'ok'],
    [{ content: '  ' }, MSG.contentEmpty],
    [{ content: 'x', colour: 'red' }, 'unknown:colour'],
  ])('%j → %s', (body, expected) => {
    expect(firstError(updateResponseSchema, body)).toBe(expected);
  });
});

describe('upvoteSchema', () => {
  it.each([
    [{ target_type: 'topic', target_id: 't1' }, 'ok'],
    [{ target_type: 'response', target_id: 'r1', target_creator_uid: 'u1' }, 'ok'],
    [{ target_type: 'response', target_id: 7 }, 'ok'],
    [{ target_type: 'comment', target_id: 'r1' }, 'target_type must be topic or response.'],
    [{ target_id: 'r1' }, 'target_type must be topic or response.'],
    [{ target_type: 'topic', target_id: 't1', value: -1 }, 'unknown:value'],
  ])('%j → %s', (body, expected) => {
    expect(firstError(upvoteSchema, body)).toBe(expected);
  });
});

describe('users schemas', () => {
  it.each([
    [{ receive_weekly_summary: true }, 'ok'],
    [{ receive_weekly_summary: false }, 'ok'],
    [{ receive_weekly_summary: 'false' }, 'receive_weekly_summary must be true or false.'],
    [{ receive_weekly_summary: 0 }, 'receive_weekly_summary must be true or false.'],
    [{}, 'receive_weekly_summary must be true or false.'],
    [{ receive_weekly_summary: true, email: 'x@example.com' }, 'unknown:email'],
  ])('preferences %j → %s', (body, expected) => {
    expect(firstError(preferencesSchema, body)).toBe(expected);
  });

  it.each([
    ['  Ada  ', 'ok'],
    ['', MSG.usernameEmpty],
    ['   ', MSG.usernameEmpty],
    [null, MSG.usernameEmpty],
    ['n'.repeat(LIMITS.displayName + 1), `A username has at most ${LIMITS.displayName} characters.`],
  ])('username %j → %s', (name, expected) => {
    expect(firstError(usernameSchema, name)).toBe(expected);
  });

  it('stores the username trimmed', () => {
    expect(usernameSchema.parse('  Ada Lovelace \t')).toBe('Ada Lovelace');
  });
});

describe('read-only fields (sent back whole by a client)', () => {
  it('a topic create drops server-owned fields', () => {
    expect(
      createTopicSchema.parse({ title: ' T ', categories: ['Other'], score: 5, creator_uid: 'x', responses_count: 9, username: 'u' }),
    ).toEqual({ id: undefined, title: 'T', categories: ['Other'] });
  });

  it('a response create drops server-owned fields', () => {
    const parsed = createResponseSchema.parse({
      content: 'c',
      type: 'for',
      topic_id: 't',
      score: 5,
      comment_count: 2,
      quoted_response: {},
    });
    expect(parsed).not.toHaveProperty('score');
    expect(parsed).not.toHaveProperty('comment_count');
    expect(parsed).toMatchObject({ content: 'c', type: 'for', topic_id: 't' });
  });

  it('an edit keeps content, quote and sources only', () => {
    expect(
      updateResponseSchema.parse({ id: 'r', content: 'c', type: 'against', topic_id: 't', quoted_response_id: 'q', sources: [], score: 1 }),
    ).toEqual({ content: 'c', quoted_response_id: 'q', sources: [] });
  });
});
