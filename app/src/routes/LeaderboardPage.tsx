// /leaderboard: Rank, User, Points in competition ranking; the signed-in user's
// row marked (aria-current and a "You" label, not colour alone) and their own rank shown even
// outside the top 100 (not while they have no points: no rank until there are points, as the
// header says too); the last copy stays readable offline with its age. "Persuasion" is the part
// of the points earned by Δ credits.
import { Link } from 'react-router-dom';
import { competitionRanks, shownRank } from '../../../shared/rules/rank';
import type { LeaderboardEntry, UserScore } from '../../../shared/types';
import { RemoteState } from '../components/RemoteState/RemoteState';
import { PERSUASION_EXPLAINED } from '../components/Explain/explanations';
import { ExplainButton, ExplainText, useExplain } from '../components/Explain/Explain';
import { useLeaderboard } from '../hooks/useLeaderboard';
import './LeaderboardPage.css';
import { ANONYMOUS } from '../../../shared/rules/author-name';

export const LEADERBOARD_EMPTY = 'The leaderboard is currently empty.';

export function LeaderboardPage() {
  const { copy, error, uid } = useLeaderboard();
  const body = (
    <RemoteState copy={copy} error={error} loadingText="Loading leaderboard..." age="always">
      {(value) => {
        const entries = competitionRanks([...value.entries].sort((a, b) => b.points - a.points));
        // The kept copy may be another user's: their own score only counts for whoever is signed in now.
        const me = uid && value.me?.uid === uid ? value.me : null;
        return entries.length === 0 ? (
          <p className="status-text">{LEADERBOARD_EMPTY}</p>
        ) : (
          <LeaderboardTable entries={entries} me={me} uid={uid} />
        );
      }}
    </RemoteState>
  );

  return (
    <main className="page leaderboard-page" id="main">
      <h1>Leaderboard</h1>
      {body}
    </main>
  );
}

function LeaderboardTable({ entries, me, uid }: { entries: LeaderboardEntry[]; me: UserScore | null; uid: string | null }) {
  const listed = uid !== null && entries.some((entry) => entry.uid === uid);
  // The list holds only users with points: one with none has no rank to show below it either.
  const ownRank = me ? shownRank(me.points, me.rank) : null;
  // The column's "?" opens its explanation above the table (a header cell is too narrow for it).
  const persuasion = useExplain(PERSUASION_EXPLAINED);
  return (
    <>
      <ExplainText explain={persuasion} className="leaderboard-explain" lead="Persuasion" />
      <table className="leaderboard">
        <thead>
          <tr>
            <th scope="col">Rank</th>
            <th scope="col">User</th>
            <th scope="col">Points</th>
            <th scope="col">
              <span className="leaderboard-th-explained">
                <abbr title={PERSUASION_EXPLAINED}>Persuasion</abbr>
                <ExplainButton explain={persuasion} question="What is Persuasion?" />
              </span>
            </th>
          </tr>
        </thead>
        <tbody>
          {entries.map((entry) => (
            <Row
              key={entry.uid}
              uid={entry.uid}
              name={entry.display_name}
              rank={entry.rank}
              points={entry.points}
              persuasion={entry.persuasion_points ?? 0}
              mine={entry.uid === uid}
            />
          ))}
        </tbody>
        {me && ownRank !== null && !listed && (
          <tbody className="leaderboard-own">
            <tr className="leaderboard-gap" aria-hidden="true">
              <td colSpan={4}>⋯</td>
            </tr>
            {/* A copy kept before the score carried persuasion points has none: unknown, not 0. */}
            <Row uid={me.uid} name={null} rank={ownRank} points={me.points} persuasion={me.persuasion_points ?? null} mine />
          </tbody>
        )}
      </table>
    </>
  );
}

function Row(props: { uid: string; name: string | null; rank: number; points: number; persuasion: number | null; mine: boolean }) {
  return (
    <tr className={props.mine ? 'leaderboard-mine' : undefined} aria-current={props.mine ? 'true' : undefined}>
      <td>{props.rank}</td>
      <td>
        <Link to={`/users/${encodeURIComponent(props.uid)}`}>{props.name ?? (props.mine ? 'You' : ANONYMOUS)}</Link>
        {props.mine && props.name !== null && <span className="leaderboard-you"> (you)</span>}
      </td>
      <td>{props.points}</td>
      <td>
        {props.persuasion ?? (
          <>
            <span aria-hidden="true">—</span>
            <span className="visually-hidden">not known</span>
          </>
        )}
      </td>
    </tr>
  );
}
