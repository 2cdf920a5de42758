// "Fix" for a sync problem: the user's version (with their corrections) is
// written again as a new local change, then the problem is forgotten. A create
// the server refused gets a new id (the old one may be taken or tombstoned).
import type { Actions, Session } from './actions.js';
import { badRequest, notFound } from '../../../shared/errors.js';
import type { ResponseDoc, TopicDoc, VoteDoc } from '../../../shared/sync-protocol.js';


export function createProblemFixer(actions: Actions, session: () => Session | null) {
  return {
    async fix(problemId: string, patch: Record<string, unknown> = {}) {
      const s = session();
      const problem = s ? await s.db.sync_problems.findOne(problemId).exec() : null;
      if (!s || !problem) throw notFound('This problem no longer exists.');
      // The wire document of its collection as the push sent it (push-handler.ts: toWire),
      // with the user's corrections laid over; the action's zod schemas check it again.
      const local: Record<string, unknown> = { ...(problem.localState as object), ...patch };
      const id = problem.itemId;
      switch (`${problem.target_collection}:${problem.action}`) {
        case 'topics:create': {
          const topic = local as Pick<TopicDoc, 'title' | 'category'>;
          await actions.createTopic({ title: topic.title, category: topic.category });
          break;
        }
        case 'topics:delete':
          await actions.deleteTopic(id);
          break;
        case 'responses:create': {
          const response = local as Pick<ResponseDoc, 'topic_id' | 'parent_response_id' | 'type' | 'content' | 'quoted_response_id' | 'sources'>;
          await actions.createResponse({
            topicId: response.topic_id,
            parentResponseId: response.parent_response_id,
            type: response.type,
            content: response.content,
            quotedResponseId: response.quoted_response_id,
            sources: response.sources,
          });
          break;
        }
        case 'responses:edit': {
          const response = local as Pick<ResponseDoc, 'content' | 'quoted_response_id' | 'sources'>;
          await actions.editResponse(id, { content: response.content, quotedResponseId: response.quoted_response_id, sources: response.sources });
          break;
        }
        case 'responses:delete':
          await actions.deleteResponse(id);
          break;
        case 'votes:vote': {
          const current = await s.db.votes.findOne(id).exec();
          const vote = local as Pick<VoteDoc, 'upvoted' | 'target_type' | 'target_id'>;
          if ((current?.upvoted ?? false) !== (vote.upvoted === true)) await actions.toggleVote(vote.target_type, vote.target_id);
          break;
        }
        case 'notifications:read':
          await actions.markRead(id);
          break;
        case 'profile:preferences':
          await actions.setWeeklySummary(local.receive_weekly_summary === true);
          break;
        default:
          throw badRequest('This change cannot be retried; discard it instead.');
      }
      await problem.remove();
    },
  };
}
