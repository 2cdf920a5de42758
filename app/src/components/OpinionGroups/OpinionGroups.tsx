// The topic page's "Opinion groups" disclosure: the server's summary, replicated with
// the topic and so on the device offline, shown as each group's size, what sets it apart and the
// common ground between the groups (what most of every group agrees with and few of any disagree with). It names no one: the summary holds sizes and shares only.
import { useContext, useId, useMemo, useState } from 'react';
import { OPINION_GROUPS, parseOpinionGroups, type OpinionGroupsSummary } from '../../../../shared/rules/opinion-groups';
import { truncate } from '../../../../shared/rules/truncate';
import type { TopicView } from '../../hooks/useTopic';
import { useData } from '../../hooks/useData';
import { useObservable } from '../../hooks/useObservable';
import { TopicTreeContext } from '../../hooks/useTopicTree';
import './OpinionGroups.css';
import { usePlainText } from '../FormattedText/useMarkdown';

export const OPINION_GROUPS_TITLE = 'Opinion groups';
const EXCERPT = 160;
const GROUP_NAMES = ['A', 'B', 'C', 'D'];
const percent = (share: number) => `${Math.round(share * 100)}%`;
const people = (n: number) => `${n} ${n === 1 ? 'person' : 'people'}`;

export function OpinionGroupsToggle({ open, controls, onToggle }: { open: boolean; controls: string; onToggle: () => void }) {
  return (
    <button type="button" className="btn btn-small" aria-expanded={open} aria-controls={controls} onClick={onToggle}>
      {OPINION_GROUPS_TITLE}
    </button>
  );
}

/** The toggle's and the panel's shared state. */
export function useOpinionGroupsDisclosure() {
  const id = useId();
  const [open, setOpen] = useState(false);
  return { id: `opinion-groups-${id}`, open, toggle: () => setOpen((o) => !o) };
}

/** What the summary's status says, in words (also when there is no summary yet). */
export function opinionGroupsLead(summary: OpinionGroupsSummary | null): string {
  const threshold = `Groups appear once ${OPINION_GROUPS.MIN_PARTICIPANTS} people have each voted on at least ${OPINION_GROUPS.MIN_VOTES} responses here`;
  if (!summary) return `${threshold}.`;
  if (summary.status === 'too-few') return `${threshold} (${summary.participants} so far).`;
  if (summary.status === 'no-clear-groups')
    return `No clear groups: the ${summary.participants} people who voted here do not split into camps that vote alike on these responses.`;
  return `The ${summary.participants} people who voted here fall into ${summary.groups.length} groups of people who vote alike on these responses. Nobody's group is shown, only each group's size.`;
}

/** Where the groups can be wrong, said under them. */
export const OPINION_GROUPS_CAVEAT =
  'Groups come from agree, disagree and pass votes alone: they show who votes alike, not why. People who voted on few responses are placed from those few, and a response nobody voted on says nothing.';

/** The groups' common ground: what the consensus list holds (shared/rules/opinion-groups.ts isConsensusIn). */
export const OPINION_GROUPS_COMMON_GROUND = 'Common ground between the groups';
export const OPINION_GROUPS_COMMON_GROUND_NOTE =
  'Responses most members of every group agreed with, among those who voted on them, and few in any group disagreed with. A pass counts as read, no opinion. A response one group disagrees with is not common ground, however much another likes it.';

export const OPINION_GROUPS_NOT_ON_DEVICE = 'Opinion groups are not on this device yet; they load when you are back online.';

/** The open panel: a region named "Opinion groups". `online` false: no copy can arrive until the connection returns. */
export function OpinionGroupsPanel({ id, topic, online = true }: { id: string; topic: TopicView; online?: boolean }) {
  const summary = useMemo(() => parseOpinionGroups(topic.opinion_groups), [topic.opinion_groups]);
  const data = useData();
  const hasGroups = summary?.status === 'groups';
  // The texts of the responses it names, from the device's copy (offline too); read only when there are some.
  const source = useMemo(() => (hasGroups ? data.topicResponses$(topic.id) : null), [data, hasGroups, topic.id]);
  const responses = useObservable(source).value;
  const texts = useMemo(() => new Map((responses ?? []).map((r) => [r.id, r.content])), [responses]);
  const tree = useContext(TopicTreeContext);
  const plain = usePlainText();

  const item = (responseId: string, detail: string) => {
    const text = texts.get(responseId);
    return (
      <li key={responseId} className="opinion-groups-item">
        {text === undefined ? (
          <span className="status-text">A response not on this device yet</span>
        ) : (
          <button type="button" className="opinion-groups-link" onClick={() => void tree?.goToResponse(responseId)}>
            {truncate(plain(text), EXCERPT)}
          </button>
        )}
        <span className="opinion-groups-share">{detail}</span>
      </li>
    );
  };

  return (
    <section id={id} className="opinion-groups-panel card" aria-label={OPINION_GROUPS_TITLE} data-testid="opinion-groups">
      {topic.opinion_groups === undefined ? (
        // The first screen's topic (embedded in the page) carries no summary: the device's copy will,
        // unless the device is offline and has none (a topic seen only through its kept first page).
        <p className="status-text" role="status">
          {online ? 'Loading opinion groups...' : OPINION_GROUPS_NOT_ON_DEVICE}
        </p>
      ) : (
        <p className="opinion-groups-lead">{opinionGroupsLead(summary)}</p>
      )}
      {summary && hasGroups && (
        <>
          <p className="status-text">{OPINION_GROUPS_CAVEAT}</p>
          <ul className="opinion-groups-list" aria-label="Groups">
            {summary.groups.map((group, g) => (
              <li key={g} className="opinion-groups-group">
                <h3 className="opinion-groups-name">
                  Group {GROUP_NAMES[g]} <span className="opinion-groups-size">· {people(group.size)}</span>
                </h3>
                {group.representative.length === 0 ? (
                  <p className="status-text">Nothing it approves sets it apart.</p>
                ) : (
                  <>
                    <p className="opinion-groups-caption">What sets it apart</p>
                    <ul className="opinion-groups-items">
                      {group.representative.map((r) =>
                        item(r.response_id, `${percent(r.share)} of this group agreed with it, ${percent(r.others_share)} of the others`),
                      )}
                    </ul>
                  </>
                )}
              </li>
            ))}
          </ul>
          <h3 className="opinion-groups-name">{OPINION_GROUPS_COMMON_GROUND}</h3>
          <p className="status-text">{OPINION_GROUPS_COMMON_GROUND_NOTE}</p>
          {summary.consensus.length === 0 ? (
            <p className="status-text">No response is common ground between the groups yet.</p>
          ) : (
            <ul className="opinion-groups-items">
              {summary.consensus.map((c) => item(c.response_id, `at least ${percent(c.min_share)} of each group agreed with it`))}
            </ul>
          )}
        </>
      )}
    </section>
  );
}
