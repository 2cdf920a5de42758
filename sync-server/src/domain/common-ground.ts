// The public side of stances: a topic's aggregate (how many stand where, how
// many changed their mind, its responses by type) and its responses ranked by common ground.
// Never anything of one person's stance.
import type { ResponseType } from '../../../shared/constants.js';
import { commonGroundScore, isCommonGround, sidesOfResponse } from '../../../shared/rules/common-ground.js';
import type { CommonGroundEntry, TopicStances } from '../../../shared/types.js';
import { liveTopic, type DomainContext } from './context.js';

export async function topicStances(ctx: DomainContext, topicId: string): Promise<TopicStances> {
  const topic = await liveTopic(ctx, topicId);
  // Maintained with the responses (store topics.addToCounts): O(1) in the topic's size.
  const responses: Record<ResponseType, number> = {
    for: topic.responses_for,
    against: topic.responses_against,
    neutral: topic.responses_neutral,
  };
  return {
    topic_id: topic.id,
    agree: topic.stance_agree,
    disagree: topic.stance_disagree,
    unsure: topic.stance_unsure,
    minds_changed: topic.minds_changed,
    responses,
  };
}

/**
 * The topic's live responses by common-ground score, best first; ties by created_at, then id
 * (oldest first). Denominators: the topic's participants on each side now.
 */
export async function commonGround(ctx: DomainContext, topicId: string, limit: number): Promise<CommonGroundEntry[]> {
  const topic = await liveTopic(ctx, topicId);
  const entries = (await ctx.store.responses.stanceTallies(topicId)).map((tally) => {
    const [agree, disagree] = sidesOfResponse(tally, { agree: topic.stance_agree, disagree: topic.stance_disagree });
    return {
      created_at: tally.created_at,
      entry: {
        response_id: tally.id,
        upvotes_agree: tally.upvotes_agree,
        upvotes_disagree: tally.upvotes_disagree,
        downvotes_agree: tally.downvotes_agree,
        downvotes_disagree: tally.downvotes_disagree,
        delta_count: tally.delta_count,
        score: commonGroundScore(agree, disagree),
        common_ground: isCommonGround(agree, disagree),
      } satisfies CommonGroundEntry,
    };
  });
  // stanceTallies is oldest first and the sort is stable: equal scores keep (created_at, id) order.
  entries.sort((a, b) => b.entry.score - a.entry.score);
  return entries.slice(0, limit).map(({ entry }) => entry);
}
