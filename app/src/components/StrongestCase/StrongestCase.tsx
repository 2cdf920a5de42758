// The strongest case on each side: at the top of a topic page, the three best
// arguments for the question and the three best against (shared/rules/strongest-case.ts ranks them
// from the device's copy, so it works offline and moves live); each opens its response in the thread.
// A disclosure: the heading's button hides it, and the choice is remembered on this device.
import { useId, useState, type MouseEvent } from 'react';
import type { CaseSide } from '../../../../shared/rules/strongest-case';
import type { FirstScreenArgument } from '../../../../shared/types';
import { authorName } from '../../../../shared/rules/author-name';
import { truncate } from '../../../../shared/rules/truncate';
import { STRONGEST_CASE_EXPLAINED } from '../Explain/explanations';
import { Explain } from '../Explain/Explain';
import type { ResponseView } from '../../hooks/useReplies';
import { useDebateStanding } from '../../hooks/useStance';
import { useStrongestCase } from '../../hooks/useStrongestCase';
import { useTopicTree } from '../../hooks/useTopicTree';
import { STANCE } from '../Stance/Stance';
import './StrongestCase.css';
import { usePlainText } from '../FormattedText/useMarkdown';

/** What a line of the panel reads of an argument (a response on the device, or the server's first screen). */
type CaseLine = Pick<ResponseView, keyof FirstScreenArgument>;

export { STRONGEST_CASE_EXPLAINED };
export const STRONGEST_CASE = 'Strongest case on each side';
export const STRONGEST_TEXT_CHARS = 160;
/** Where the open/closed choice is kept (this device only; nothing personal). */
export const STRONGEST_OPEN_KEY = 'crux-strongest-case-open';

export const SIDE_TITLE: Record<CaseSide, string> = { for: 'Best arguments for', against: 'Best arguments against' };
export const SIDE_EMPTY: Record<CaseSide, string> = {
  for: 'No argument for has more upvotes than disagrees from people who agree yet.',
  against: 'No argument against has more upvotes than disagrees from people who disagree yet.',
};
export const NO_SIDES_YET = 'Nobody has said where they stand yet: the best arguments show once people take a side and upvote.';

function readOpen(): boolean {
  try {
    return localStorage.getItem(STRONGEST_OPEN_KEY) !== 'false';
  } catch {
    return true; // storage refused (private mode): open, as for everyone
  }
}

/**
 * "Upvoted by 6 of 10 who agree and 3 of 8 who disagree; disagreed with by 1 who agrees": the figures
 * the ranking reads (the disagrees only when there are some).
 */
export function approvalText(r: CaseLine, participants: { agree: number; disagree: number }): string {
  const agree = Math.min(r.upvotes_agree, participants.agree);
  const disagree = Math.min(r.upvotes_disagree, participants.disagree);
  const upvoted = `Upvoted by ${agree} of ${participants.agree} who agree and ${disagree} of ${participants.disagree} who disagree`;
  const against = [
    r.downvotes_agree > 0 ? `${r.downvotes_agree} who ${r.downvotes_agree === 1 ? 'agrees' : 'agree'}` : null,
    r.downvotes_disagree > 0 ? `${r.downvotes_disagree} who ${r.downvotes_disagree === 1 ? 'disagrees' : 'disagree'}` : null,
  ].filter((part) => part !== null);
  return against.length === 0 ? upvoted : `${upvoted}; disagreed with by ${against.join(' and ')}`;
}

export function StrongestCasePanel({ topicId }: { topicId: string }) {
  const standing = useDebateStanding();
  const participants = standing?.participants ?? { agree: 0, disagree: 0 };
  const { best, count, error, loading, firstScreen: server } = useStrongestCase(topicId, participants);
  const [open, setOpen] = useState(readOpen);
  const id = `strongest-${useId().replace(/:/g, '')}`;

  function toggle() {
    const next = !open;
    setOpen(next);
    try {
      localStorage.setItem(STRONGEST_OPEN_KEY, String(next));
    } catch {
      // Not kept: it still toggles for this visit.
    }
  }

  // Not on the device yet: a first visit's page came with the server's ranking (`server`), drawn with
  // the page (drawn later, the panel pushed everything below it down).
  // Nothing to rank yet (no responses, or not read yet: the list below says it is loading): no empty
  // box above the first response, and no second "Loading responses...".
  if (!error && (loading || count === 0) && !server) return null;
  const lines: Record<CaseSide, CaseLine[]> = server ?? {
    for: best.for.map((r) => r.response),
    against: best.against.map((r) => r.response),
  };
  const noSides = participants.agree + participants.disagree === 0;
  return (
    <section className="strongest-case card" aria-labelledby={`${id}-title`} data-testid="strongest-case">
      <div className="strongest-case-head">
        <h2 className="strongest-case-title" id={`${id}-title`}>
          <button type="button" className="strongest-case-toggle" aria-expanded={open} aria-controls={`${id}-body`} onClick={toggle}>
            <span className="strongest-case-chevron" aria-hidden="true">
              {open ? '▾' : '▸'}
            </span>
            {STRONGEST_CASE}
          </button>
        </h2>
        <Explain question="How are the best arguments chosen?" text={STRONGEST_CASE_EXPLAINED} />
      </div>
      <div id={`${id}-body`} hidden={!open}>
        {error ? (
          <p className="error-text" role="alert">
            Error: {error instanceof Error ? error.message : 'the responses could not be read.'}
          </p>
        ) : noSides ? (
          <p className="muted">{NO_SIDES_YET}</p>
        ) : (
          <div className="strongest-case-sides">
            <SideList id={`${id}-for`} side="for" lines={lines.for} participants={participants} />
            <SideList id={`${id}-against`} side="against" lines={lines.against} participants={participants} />
          </div>
        )}
      </div>
    </section>
  );
}

function SideList({
  id,
  side,
  lines,
  participants,
}: {
  id: string;
  side: CaseSide;
  lines: CaseLine[];
  participants: { agree: number; disagree: number };
}) {
  const tree = useTopicTree();
  const plain = usePlainText();
  function open(event: MouseEvent, responseId: string) {
    // Opens the thread down to it and scrolls there, as the debate map does; a new tab still follows the link.
    if (event.metaKey || event.ctrlKey || event.shiftKey || event.button !== 0) return;
    event.preventDefault();
    void tree.goToResponse(responseId);
  }
  return (
    <div className={`strongest-case-side strongest-case-${side}`}>
      <h3 id={id} className="strongest-case-side-title">
        <span aria-hidden="true">{STANCE[side].icon} </span>
        {SIDE_TITLE[side]}
      </h3>
      {lines.length === 0 ? (
        <p className="muted strongest-case-empty">{SIDE_EMPTY[side]}</p>
      ) : (
        <ol className="strongest-case-list" aria-labelledby={id}>
          {lines.map((response) => (
            <li key={response.id} data-response-id={response.id}>
              <a
                className="strongest-case-link"
                href={`#response-${encodeURIComponent(response.id)}`}
                onClick={(e) => open(e, response.id)}
              >
                {truncate(plain(response.content), STRONGEST_TEXT_CHARS)}
              </a>
              <span className="strongest-case-meta">
                {authorName(response.username)} · {approvalText(response, participants)}
              </span>
            </li>
          ))}
        </ol>
      )}
    </div>
  );
}
