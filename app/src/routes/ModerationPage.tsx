// /moderation: the moderators' queue. Reported items grouped by target, as the server
// orders them (distinct reporters, then age), Open or Handled; each card shows the author's own
// text in context, every report, and the actions its kind allows. Every action asks for a reason
// (the author sees it) and shows the server's refusal as it says it. Members and visitors read
// MSG.moderatorsOnly. It asks the server (nothing is kept for offline reading).
import { useCallback, useEffect, useState, type ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { SUSPENDED_FOR_GOOD, type ModerationAction, type ReportStatus } from '../../../shared/constants';
import { MSG } from '../../../shared/messages';
import type { ModerationQueueItem, ModerationQueuePage } from '../../../shared/types';
import { AuthorLink } from '../components/AuthorLink/AuthorLink';
import { ACTION_LABELS, ActionDialog } from '../components/ModerationAction/ModerationAction';
import { RelativeTime } from '../components/RelativeTime/RelativeTime';
import { FormattedText } from '../components/FormattedText/FormattedText';
import { REPORT_REASON_LABELS } from '../components/ReportDialog/ReportDialog';
import { errorMessage } from '../error-message';
import { useData } from '../hooks/useData';
import { useMyAccount } from '../hooks/useMyAccount';
import { useSession } from '../hooks/useSession';
import { useSyncStatus } from '../hooks/useSyncStatus';
import { isModerator } from '../../../shared/constants';
import './ModerationPage.css';

export const MODERATION_TITLE = 'Moderation';
export const QUEUE_EMPTY = { open: 'No open reports.', handled: 'No handled reports.' } satisfies Record<ReportStatus, string>;
export const QUEUE_OFFLINE = 'You are offline: the queue loads when you are back online.';
export const QUEUE_PAGE_SIZE = 20;

/** Whether the signed-in user may see the moderators' pages: 'loading' until their profile is known. */
export function useModeratorGate(): 'loading' | 'no' | 'yes' {
  const { ready, user } = useSession();
  const account = useMyAccount();
  if (ready && !user) return 'no';
  if (!ready || !account) return user ? 'loading' : 'no';
  return isModerator(account.role) ? 'yes' : 'no';
}

export function ModeratorsOnly() {
  return (
    <p className="status-text moderation-only" role="status">
      {MSG.moderatorsOnly}
    </p>
  );
}

export function ModerationNav() {
  return (
    <nav className="moderation-nav" aria-label="Moderation">
      <Link to="/moderation">Queue</Link>
      <Link to="/moderation/log">Log</Link>
    </nav>
  );
}

/** A moderators' page: its title, then who may not see it, a loading line, or the page with the nav. */
export function ModeratorsPage({ title, children }: { title: string; children: ReactNode }) {
  const gate = useModeratorGate();
  return (
    <main className="page moderation-page" id="main">
      <h1>{title}</h1>
      {gate === 'no' ? (
        <ModeratorsOnly />
      ) : gate === 'loading' ? (
        <p className="status-text" role="status">
          Loading...
        </p>
      ) : (
        <>
          <ModerationNav />
          {children}
        </>
      )}
    </main>
  );
}

export function ModerationPage() {
  return (
    <ModeratorsPage title={MODERATION_TITLE}>
      <Queue />
    </ModeratorsPage>
  );
}

type Load = { state: 'loading' } | { state: 'error'; message: string } | { state: 'done'; page: ModerationQueuePage };

function Queue() {
  const data = useData();
  const online = useSyncStatus()?.online ?? true;
  const [status, setStatus] = useState<ReportStatus>('open');
  const [offset, setOffset] = useState(0);
  const [load, setLoad] = useState<Load>({ state: 'loading' });
  const [version, setVersion] = useState(0);
  const reload = useCallback(() => setVersion((v) => v + 1), []);
  // What the last action did: said above the queue (its card may leave the list once handled).
  const [notice, setNotice] = useState<string | null>(null);

  useEffect(() => {
    let alive = true;
    data.moderationQueue(status, QUEUE_PAGE_SIZE, offset).then(
      (page) => alive && setLoad({ state: 'done', page }),
      (error: unknown) => alive && setLoad({ state: 'error', message: errorMessage(error) }),
    );
    return () => {
      alive = false;
    };
  }, [data, status, offset, version, online]);

  function show(next: ReportStatus) {
    if (next === status) return;
    setStatus(next);
    setOffset(0);
    setLoad({ state: 'loading' });
  }

  let body;
  if (!online && load.state !== 'done') body = <p className="status-text">{QUEUE_OFFLINE}</p>;
  else if (load.state === 'loading')
    body = (
      <p className="status-text" role="status">
        Loading reports...
      </p>
    );
  else if (load.state === 'error')
    body = (
      <div role="alert">
        <p className="error-text">Could not load the queue. Error: {load.message}</p>
        <button type="button" className="btn moderation-target" onClick={reload}>
          Try again
        </button>
      </div>
    );
  else if (load.page.items.length === 0 && offset === 0) body = <p className="status-text">{QUEUE_EMPTY[status]}</p>;
  else {
    const { items, total } = load.page;
    body = (
      <>
        {!online && <p className="status-text">{QUEUE_OFFLINE}</p>}
        <ol className="moderation-queue" aria-label={status === 'open' ? 'Open reports' : 'Handled reports'}>
          {items.map((item) => (
            <QueueCard
              key={`${item.target_type}_${item.target_id}`}
              item={item}
              onActed={(text) => {
                setNotice(text);
                reload();
              }}
            />
          ))}
        </ol>
        <Pager offset={offset} shown={items.length} total={total} pageSize={QUEUE_PAGE_SIZE} onOffset={setOffset} />
      </>
    );
  }

  return (
    <>
      <div className="moderation-filter" role="group" aria-label="Show reports">
        {(['open', 'handled'] as const).map((value) => (
          <button key={value} type="button" className="btn moderation-target" aria-pressed={status === value} onClick={() => show(value)}>
            {value === 'open' ? 'Open' : 'Handled'}
          </button>
        ))}
      </div>
      <p className="status-text moderation-done" role="status">
        {notice}
      </p>
      {body}
    </>
  );
}

export function Pager({
  offset,
  shown,
  total,
  pageSize,
  onOffset,
}: {
  offset: number;
  shown: number;
  total: number;
  pageSize: number;
  onOffset: (offset: number) => void;
}) {
  if (total <= pageSize && offset === 0) return null;
  return (
    <nav className="moderation-pager" aria-label="Pages">
      <button
        type="button"
        className="btn moderation-target"
        disabled={offset === 0}
        onClick={() => onOffset(Math.max(0, offset - pageSize))}
      >
        Previous
      </button>
      <span className="muted">
        {shown > 0 ? `${offset + 1}–${offset + shown}` : '0'} of {total}
      </span>
      <button
        type="button"
        className="btn moderation-target"
        disabled={offset + shown >= total}
        onClick={() => onOffset(offset + pageSize)}
      >
        Next
      </button>
    </nav>
  );
}

/** The actions a queue item offers, by its kind and state. */
export function actionsFor(item: ModerationQueueItem): ModerationAction[] {
  const { target } = item;
  const actions: ModerationAction[] = [];
  if (item.target_type !== 'user') {
    actions.push(target.moderation ? 'restore' : 'remove');
    if (item.target_type === 'topic') actions.push(target.locked ? 'unlock' : 'lock');
  } else actions.push(isSuspended(target.suspended_until) ? 'unsuspend' : 'suspend');
  if (item.status === 'open') actions.push('dismiss');
  return actions;
}

const isSuspended = (until: string | null) => until !== null && Date.parse(until) > Date.now();

function stateText(item: ModerationQueueItem): string[] {
  const { target } = item;
  const states: string[] = [];
  if (target.deleted) states.push('Deleted by its author');
  if (target.moderation === 'removed') states.push(`Removed${target.moderation_reason ? `: ${target.moderation_reason}` : ''}`);
  if (target.moderation === 'hidden') states.push('Hidden pending review');
  if (target.locked) states.push('Locked');
  if (isSuspended(target.suspended_until))
    states.push(
      target.suspended_until === SUSPENDED_FOR_GOOD
        ? 'Author suspended for good'
        : `Author suspended until ${target.suspended_until!.slice(0, 10)}`,
    );
  return states;
}

const KIND_LABEL = { topic: 'Topic', response: 'Response', user: 'User' } as const;

function QueueCard({ item, onActed }: { item: ModerationQueueItem; onActed: (message: string) => void }) {
  const [acting, setActing] = useState<{
    action: ModerationAction;
    targetType: 'topic' | 'response' | 'user';
    targetId: string;
    what: string;
  } | null>(null);
  const { target } = item;
  const headingId = `queue-${item.target_type}-${item.target_id}`;
  const states = stateText(item);
  const authorSuspended = isSuspended(target.suspended_until);
  return (
    <li className="moderation-card card" aria-labelledby={headingId} data-testid="queue-item">
      <h2 className="moderation-card-title" id={headingId}>
        <span className="chip">{KIND_LABEL[item.target_type]}</span>{' '}
        <span>
          {item.reporters} {item.reporters === 1 ? 'reporter' : 'reporters'}
        </span>
      </h2>
      <blockquote className="moderation-text" data-testid="queue-text">
        {/* A response reads as its author formatted it (its links' addresses a hover away); a title is plain. */}
        {item.target_type === 'response' ? <FormattedText text={target.text} /> : target.text}
      </blockquote>
      {target.sources.length > 0 && (
        <ul className="response-sources" aria-label="Sources">
          {target.sources.map((s) => (
            <li key={s.url}>
              <a href={s.url} target="_blank" rel="noreferrer nofollow">
                {s.name || s.url}
              </a>
            </li>
          ))}
        </ul>
      )}
      <p className="moderation-meta">
        {item.target_type === 'user' ? 'User' : 'By'} <AuthorLink uid={target.author_uid} name={target.author_name} />
        {target.author_role !== 'member' && <span className="chip moderation-role">{target.author_role}</span>}
        {target.created_at && (
          <>
            {' · '}
            <RelativeTime date={target.created_at} />
          </>
        )}
        {' · '}
        <Link to={target.link}>
          {item.target_type === 'user'
            ? 'Open their page'
            : target.topic_title && item.target_type === 'response'
              ? `In “${target.topic_title}”`
              : 'Open in its thread'}
        </Link>
      </p>
      {states.length > 0 && (
        <ul className="moderation-states" aria-label="State">
          {states.map((state) => (
            <li key={state} className="chip">
              {state}
            </li>
          ))}
        </ul>
      )}
      <p className="moderation-meta muted">
        First reported <RelativeTime date={item.first_reported_at} />, last <RelativeTime date={item.last_reported_at} />
      </p>
      <ul className="moderation-reports" aria-label="Reports">
        {item.reports.map((report) => (
          <li key={`${report.reporter_uid}-${report.created_at}`}>
            <strong>{REPORT_REASON_LABELS[report.reason]}</strong>
            {report.note && <span className="moderation-note"> — “{report.note}”</span>}
            <span className="muted">
              {' '}
              by <AuthorLink uid={report.reporter_uid} name={report.reporter_name} />, <RelativeTime date={report.updated_at} />
            </span>
          </li>
        ))}
      </ul>
      <div className="moderation-actions" role="group" aria-label="Actions">
        {actionsFor(item).map((action) => (
          <button
            key={action}
            type="button"
            className={`btn moderation-target${action === 'remove' || action === 'suspend' ? ' btn-danger' : ''}`}
            aria-haspopup="dialog"
            onClick={() =>
              setActing({
                action,
                targetType: item.target_type,
                targetId: item.target_id,
                what: KIND_LABEL[item.target_type].toLowerCase(),
              })
            }
          >
            {ACTION_LABELS[action]}
          </button>
        ))}
        {item.target_type !== 'user' && (
          <button
            type="button"
            className={`btn moderation-target${authorSuspended ? '' : ' btn-danger'}`}
            aria-haspopup="dialog"
            onClick={() =>
              setActing({
                action: authorSuspended ? 'unsuspend' : 'suspend',
                targetType: 'user',
                targetId: target.author_uid,
                what: 'author',
              })
            }
          >
            {authorSuspended ? 'Unsuspend author' : 'Suspend author'}
          </button>
        )}
      </div>
      {acting && (
        <ActionDialog
          {...acting}
          onClose={() => setActing(null)}
          onDone={(text) => {
            setActing(null);
            onActed(text);
          }}
        />
      )}
    </li>
  );
}
