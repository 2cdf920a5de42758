// /users/{uid} (beyond SPEC): a user's name, one row of actions (Block, Report, and a moderator's and
// an admin's), points (persuasion points among them) and rank (none until they have points, as on the
// leaderboard), their topics and responses, each with a line of what is known about it.
import { Fragment, type ReactNode } from 'react';
import { Link, useParams } from 'react-router-dom';
import { RelativeTime } from '../components/RelativeTime/RelativeTime';
import { useUserProfile } from '../hooks/useUserProfile';
import { authorName } from '../../../shared/rules/author-name';
import { shownRank } from '../../../shared/rules/rank';
import { RemoteState } from '../components/RemoteState/RemoteState';
import './UserPage.css';
import { PERSUASION_EXPLAINED } from '../components/Explain/explanations';
import { ExplainButton, ExplainText, useExplain } from '../components/Explain/Explain';
import { UserModeration } from '../components/UserModeration/UserModeration';
import { FollowedTopics } from '../components/FollowButton/FollowButton';
import { useSession } from '../hooks/useSession';
import { usePlainText } from '../components/FormattedText/useMarkdown';

export const USER_NOT_FOUND = 'User not found.';
/** A user with no points has no place on the leaderboard, so no rank. */
export const NO_RANK_YET = 'None yet';
const STANCE = { for: 'Agrees', against: 'Disagrees', neutral: 'Discusses' } as const;

/** The parts that are there, with " · " between them: never one before the first or after the last. */
export function joinPresent(parts: ReactNode[]): ReactNode[] {
  return parts
    .filter((part) => part !== null && part !== undefined && part !== false && part !== '')
    .map((part, i) => (
      <Fragment key={i}>
        {i > 0 && ' · '}
        {part}
      </Fragment>
    ));
}

export function UserPage() {
  const { uid = '' } = useParams();
  const { copy, error } = useUserProfile(uid);
  // What persuasion points are: a "?" beside them opens it under the figures.
  const persuasion = useExplain(PERSUASION_EXPLAINED);
  const { user } = useSession();
  // A response's Markdown as written reads here as its words alone (the link is the whole line).
  const plain = usePlainText();
  if (copy?.notFound)
    return (
      <main className="page" id="main">
        <h1>{USER_NOT_FOUND}</h1>
        <p>
          <Link to="/">
            <span aria-hidden="true">← </span>Back to Topics
          </Link>
        </p>
      </main>
    );

  const body = (
    <RemoteState copy={copy} error={error} loadingText="Loading user...">
      {(profile) => (
        <>
          <dl className="user-score">
            <div>
              <dt>Points</dt>
              <dd>{profile.points}</dd>
            </div>
            <div>
              <dt className="user-score-explained">
                <abbr title={PERSUASION_EXPLAINED}>Persuasion points</abbr>
                <ExplainButton explain={persuasion} question="What are persuasion points?" />
              </dt>
              <dd data-testid="persuasion-points">{profile.persuasion_points ?? 0}</dd>
            </div>
            <div>
              <dt>Rank</dt>
              <dd>{shownRank(profile.points, profile.rank) ?? NO_RANK_YET}</dd>
            </div>
          </dl>
          <ExplainText explain={persuasion} className="user-score-explain" lead="Persuasion points" />
          <section aria-labelledby="user-topics">
            <h2 id="user-topics">Topics</h2>
            {profile.topics.length === 0 ? (
              <p className="muted">No topics yet.</p>
            ) : (
              <ul className="user-items">
                {profile.topics.map((topic) => (
                  <li key={topic.id}>
                    <Link to={`/topics/${encodeURIComponent(topic.id)}`}>{topic.title}</Link>
                    <span className="muted user-item-meta" data-testid="user-item-meta">
                      {joinPresent([<RelativeTime key="at" date={topic.created_at} />])}
                    </span>
                  </li>
                ))}
              </ul>
            )}
          </section>
          <section aria-labelledby="user-responses">
            <h2 id="user-responses">Responses</h2>
            {profile.responses.length === 0 ? (
              <p className="muted">No responses yet.</p>
            ) : (
              <ul className="user-items">
                {profile.responses.map((response) => (
                  <li key={response.id}>
                    <Link to={`/topics/${encodeURIComponent(response.topic_id)}#response-${encodeURIComponent(response.id)}`}>
                      {plain(response.content)}
                    </Link>
                    <span className="muted user-item-meta" data-testid="user-item-meta">
                      {joinPresent([
                        STANCE[response.type],
                        response.topic_title && `on “${response.topic_title}”`,
                        <RelativeTime key="at" date={response.created_at} />,
                      ])}
                    </span>
                  </li>
                ))}
              </ul>
            )}
          </section>
        </>
      )}
    </RemoteState>
  );

  return (
    <main className="page user-page" id="main">
      <h1>{copy?.value ? authorName(copy.value.display_name) : 'User'}</h1>
      {copy?.value && copy.value.role !== 'member' && (
        <p className="user-role-badge">{copy.value.role === 'admin' ? 'Admin' : 'Moderator'}</p>
      )}
      {uid && copy?.value && <UserModeration uid={uid} name={authorName(copy.value.display_name)} role={copy.value.role} />}
      {body}
      {/* Private: only on the user's own page, from this device's synced copy (offline too). */}
      {user?.uid === uid && <FollowedTopics />}
    </main>
  );
}
