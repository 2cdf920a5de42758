// "Fix" for a sync problem: the user's version (with their corrections) is
// written again as a new local change, then the problem is forgotten. A create
// the server refused gets a new id (the old one may be taken or tombstoned).
import type { Actions, Session } from './actions.js';
import { DataError } from './errors.js';

type Local = Record<string, any>;

export function createProblemFixer(actions: Actions, session: () => Session | null) {
  return {
    async fix(problemId: string, patch: Record<string, unknown> = {}) {
      const s = session();
      const problem = s ? await s.db.sync_problems.findOne(problemId).exec() : null;
      if (!s || !problem) throw new DataError('This problem no longer exists.', 'not-found');
      const local: Local = { ...(problem.localState as Local), ...patch };
      const id = problem.itemId;
      switch (`${problem.target_collection}:${problem.action}`) {
        case 'topics:create':
          await actions.createTopic({ title: local.title, category: local.category });
          break;
        case 'topics:delete':
          await actions.deleteTopic(id);
          break;
        case 'responses:create':
          await actions.createResponse({
            topicId: local.topic_id,
            parentResponseId: local.parent_response_id,
            type: local.type,
            content: local.content,
            quotedResponseId: local.quoted_response_id,
            sources: local.sources,
          });
          break;
        case 'responses:edit':
          await actions.editResponse(id, { content: local.content, quotedResponseId: local.quoted_response_id, sources: local.sources });
          break;
        case 'responses:delete':
          await actions.deleteResponse(id);
          break;
        case 'votes:vote': {
          const current = await s.db.votes.findOne(id).exec();
          if ((current?.upvoted ?? false) !== (local.upvoted === true)) await actions.toggleVote(local.target_type, local.target_id);
          break;
        }
        case 'notifications:read':
          await actions.markRead(id);
          break;
        case 'profile:preferences':
          await actions.setWeeklySummary(local.receive_weekly_summary === true);
          break;
        default:
          throw new DataError('This change cannot be retried; discard it instead.', 'invalid-argument');
      }
      await problem.remove();
    },
  };
}
