// Following topics: the signed-in user's follows, read live from their synced data
// (offline too), followed and unfollowed locally at once (the data layer sends it when it can).
import { useMemo, useState } from 'react';
import { errorMessage } from '../error-message';
import type { FollowedTopicView } from '../data/api';
import { useData } from './useData';
import { useObservable } from './useObservable';

export type { FollowedTopicView } from '../data/api';

/** Every follow document of the signed-in user (unfollowed ones too), most recent first; undefined while loading. */
export function useFollows(): { follows: FollowedTopicView[] | undefined; error: unknown } {
  const data = useData();
  const follows$ = useMemo(() => data.follows$(), [data]);
  const { value, error } = useObservable(follows$);
  return { follows: value, error };
}

/** The Follow / Following toggle of a topic: the stored state, a write under way, and why one failed. */
export function useFollowToggle(topicId: string, title: string) {
  const data = useData();
  const { follows } = useFollows();
  const mine = follows?.find((f) => f.topic_id === topicId);
  const following = mine?.following === true;
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  async function toggle() {
    setBusy(true);
    setError(null);
    try {
      if (following) await data.unfollowTopic(topicId);
      else await data.followTopic(topicId, title);
    } catch (e) {
      setError(errorMessage(e));
    } finally {
      setBusy(false);
    }
  }
  return { following, known: follows !== undefined, isPending: mine?.isPending === true, busy, error, toggle };
}
