// What a refused write says to the person: which item it is ("Your reply to “…” in
// “…”"), its text, why it was refused, and only the ways out that can work. A Retry is offered
// only when sending the same thing again could succeed (the network, the server's own failure, a
// rate limit, a sign-in); a 400/403/404 would be refused again. A reply whose parent response was
// deleted can still go to the topic itself; a write of another account whose session ended on this
// device can be posted as the person now signed in. Text can always be copied, and
// Discard always asks first (SyncIssues.tsx).
import { MSG } from '../../../../shared/messages';
import type { SyncProblem } from '../../hooks/useSyncProblems';

/** What the screen knows about the item's surroundings (from the device's copy). */
export interface ProblemContext {
  /** The signed-in user. */
  uid: string | null;
  /** The topic the item belongs to: its title, null when it is not on the device, undefined while unknown. */
  topicTitle: string | null | undefined;
  /** The text of the response replied to or voted on; null when it is not (or no longer) on the device. */
  targetExcerpt: string | null | undefined;
}

export type ProblemChoice = 'retry' | 'post-to-topic' | 'post-as-me' | 'copy' | 'discard';

export interface ProblemWording {
  /** Names the item: "Your reply to “…” in “…”". */
  subject: string;
  /** The person's own text (a response's or a topic title), when the write had one. */
  text: string | null;
  /** Why it was not saved, as one sentence: "It could not be saved: <the server's reason>", or the device's own "Not sent: …". */
  reason: string;
  /** The ways out, in the order shown. */
  choices: ProblemChoice[];
}

const EXCERPT_LENGTH = 60;

/** “The first words…” of a text, on one line. */
export function excerpt(text: string, length = EXCERPT_LENGTH): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length <= length ? line : `${line.slice(0, length - 1).trimEnd()}…`;
}

const str = (value: unknown): string | null => (typeof value === 'string' && value.trim() !== '' ? value : null);

/** ` in “Topic”`, or where the topic is not on this device. */
function inTopic(title: string | null | undefined): string {
  return title ? ` in “${excerpt(title)}”` : ' in a topic that is not on this device';
}

/**
 * A status a second attempt can get past: no answer (0), a session to sign in again (401), a rate
 * limit (429), the server's own failure (5xx). Anything else is the server's considered "no".
 */
export function retryCanWork(status: number): boolean {
  return status === 0 || status === 401 || status === 408 || status === 429 || status >= 500;
}

/** Written by another account (its session ended on this device before the write was sent). */
export function isForeign(problem: SyncProblem, uid: string | null): boolean {
  const author = str(problem.localState.creator_uid);
  return author !== null && uid !== null && author !== uid;
}

/** A reply refused because the response it answers is gone. */
export function parentGone(problem: SyncProblem): boolean {
  return (
    problem.collection === 'responses' &&
    problem.action === 'create' &&
    str(problem.localState.parent_response_id) !== null &&
    problem.status === 404 &&
    problem.error === MSG.responseNotFound
  );
}

function subjectOf(problem: SyncProblem, ctx: ProblemContext): string {
  const local = problem.localState;
  const topic = inTopic(ctx.topicTitle);
  const target = ctx.targetExcerpt ? `“${excerpt(ctx.targetExcerpt)}”` : null;
  switch (problem.collection) {
    case 'responses': {
      if (problem.action === 'edit') return `Your edit of a response${topic}`;
      if (problem.action === 'delete') return `Your deletion of a response${topic}`;
      if (!str(local.parent_response_id)) return `Your response${topic}`;
      if (target) return `Your reply to ${target}${topic}`;
      return `Your reply to a response that has since been deleted,${topic}`;
    }
    case 'topics': {
      const title = str(local.title) ?? ctx.topicTitle;
      const named = title ? ` “${excerpt(title)}”` : '';
      if (problem.action === 'delete') return `Your deletion of the topic${named}`;
      if (problem.action === 'edit') return `Your edit of the topic${named}`;
      return `Your topic${named}`;
    }
    case 'votes':
      if (local.target_type === 'topic')
        return ctx.topicTitle ? `Your vote on the topic “${excerpt(ctx.topicTitle)}”` : 'Your vote on a topic';
      return target ? `Your vote on ${target}${topic}` : `Your vote on a response${topic}`;
    case 'stances':
      return ctx.topicTitle ? `Your stance on “${excerpt(ctx.topicTitle)}”` : 'Your stance on a topic';
    case 'notifications':
      return 'A notification marked as read';
    case 'profile':
      return 'Your e-mail preference';
    case 'blocks': {
      const name = str(local.display_name);
      const verb = local.blocked === false ? 'unblock' : 'block';
      return name ? `Your ${verb} of ${name}` : `Your ${verb} of a member`;
    }
    case 'follows': {
      const title = str(local.title) ?? ctx.topicTitle;
      const verb = local.following === false ? 'unfollowing' : 'following';
      return title ? `Your ${verb} of “${excerpt(title)}”` : `Your ${verb} of a topic`;
    }
    case 'reports':
      return local.target_type === 'topic' ? 'Your report of a topic' : 'Your report of a response';
  }
}

export function describeProblem(problem: SyncProblem, ctx: ProblemContext): ProblemWording {
  const local = problem.localState;
  // A topic's title is its text; a response's, its content. Deletions have no text of the person's to keep.
  const text = problem.action === 'delete' ? null : problem.collection === 'topics' ? str(local.title) : str(local.content);
  const foreign = isForeign(problem, ctx.uid);
  let subject = subjectOf(problem, ctx);
  if (foreign) subject = `${subject.replace(/^Your /, 'A ')}, written by another account whose session ended on this device`;
  const choices: ProblemChoice[] = [];
  if (foreign) {
    if (problem.action === 'create') choices.push('post-as-me');
  } else if (parentGone(problem)) choices.push('post-to-topic');
  else if (retryCanWork(problem.status)) choices.push('retry');
  if (text) choices.push('copy');
  choices.push('discard');
  const reason = problem.error.startsWith('Not sent') ? problem.error : `It could not be saved: ${problem.error}`;
  return { subject, text, reason, choices };
}

/** The button of each choice; `me`: the signed-in user's name. */
export function choiceLabel(choice: ProblemChoice, me: string | null): string {
  switch (choice) {
    case 'retry':
      return 'Retry';
    case 'post-to-topic':
      return 'Post as a reply to the topic';
    case 'post-as-me':
      return me ? `Post it as ${me}` : 'Post it as yourself';
    case 'copy':
      return 'Copy text';
    case 'discard':
      return 'Discard';
  }
}

/** The confirmation Discard asks for. */
export function discardWarning(wording: ProblemWording): string {
  return wording.text
    ? 'Your text will be lost: it is not on the server and cannot be brought back. Copy it first if you may want it.'
    : 'This change will be lost: it is not on the server and cannot be brought back.';
}
