// The shape of the debate in the topic header: responses by type and participants'
// stances, each a small bar with its numbers beside it; the bar itself is one image whose text
// alternative carries the same numbers (never colour alone). When the topic's replies are not on
// this device, the responses bar says so instead of counting 0 / 0 / 0.
import type { ReactNode } from 'react';
import type { ResponseType, Stance } from '../../../../shared/constants';
import type { ResponseBalance } from '../../hooks/useResponseBalance';
import { STANCE } from '../Stance/Stance';
import { mindsChangedLine, STANCE_CHOICE } from '../WhereIStand/stance-labels';
import { ExplainButton, ExplainText, useExplain } from '../Explain/Explain';
import { DELTA_EXPLAINED, STANCE_BAR_EXPLAINED } from '../Explain/explanations';
import './BalanceBars.css';

interface Segment {
  key: string;
  count: number;
  tone: 'for' | 'against' | 'neutral';
  icon: string;
  /** "3 agree" */
  text: string;
}

const RESPONSE_TYPES: ResponseType[] = ['for', 'against', 'neutral'];
const RESPONSE_WORDS: Record<ResponseType, string> = { for: 'agree', against: 'disagree', neutral: 'discuss' };
const STANCE_ORDER: Stance[] = ['agree', 'disagree', 'unsure'];

/** The responses bar offline, when the server has replies this device has not pulled (the topic page's REPLIES_NOT_ON_DEVICE, short). */
export const BALANCE_NOT_ON_DEVICE = 'Not on this device yet';
/** The same, online, while they are on their way. */
export const BALANCE_LOADING = 'Loading...';

export function responseSegments(balance: ResponseBalance | undefined): Segment[] {
  return RESPONSE_TYPES.map((type) => {
    const count = balance?.[type] ?? 0;
    return { key: type, count, tone: type, icon: STANCE[type].icon, text: `${count} ${RESPONSE_WORDS[type]}` };
  });
}

export function stanceSegments(counts: Record<Stance, number>): Segment[] {
  return STANCE_ORDER.map((stance) => {
    const { icon, counted, tone } = STANCE_CHOICE[stance];
    return { key: stance, count: counts[stance], tone, icon, text: `${counts[stance]} ${counted}` };
  });
}

interface BalanceBarsProps {
  /** undefined while the local store has not answered yet (the bar stays, empty: no layout jump). */
  balance: ResponseBalance | undefined;
  stances: Record<Stance, number>;
  mindsChanged: number;
  /** Said instead of the responses' numbers when they are not counted on this device (e.g. BALANCE_NOT_ON_DEVICE). */
  responsesNote?: string | null;
}

export function BalanceBars({ balance, stances, mindsChanged, responsesNote }: BalanceBarsProps) {
  // What the stance bar and Δ mean, readable by touch and keyboard.
  const stanceBar = useExplain(STANCE_BAR_EXPLAINED);
  const delta = useExplain(DELTA_EXPLAINED);
  return (
    <div className="balance-bars">
      <BalanceBar title="Responses" segments={responseSegments(balance)} testId="response-balance" note={responsesNote ?? null} />
      <BalanceBar
        title="Stances"
        titleExtra={<ExplainButton explain={stanceBar} question="What is the stance bar?" />}
        segments={stanceSegments(stances)}
        testId="stance-balance"
        extra={
          <span className="balance-minds">
            <span data-testid="minds-changed">{mindsChangedLine(mindsChanged)}</span>
            <ExplainButton explain={delta} question="What is Δ (delta)?" />
          </span>
        }
        after={
          <>
            <ExplainText explain={stanceBar} className="balance-explain" />
            <ExplainText explain={delta} className="balance-explain" />
          </>
        }
      />
    </div>
  );
}

interface BalanceBarProps {
  title: string;
  /** Beside the title (an explanation's button). */
  titleExtra?: ReactNode;
  segments: Segment[];
  testId: string;
  /** After the numbers, on their line. */
  extra?: ReactNode;
  /** Whole lines under the row (the explanations' texts). */
  after?: ReactNode;
  /** Said instead of the numbers, which are not known here: the bar draws nothing. */
  note?: string | null;
}

function BalanceBar({ title, titleExtra, segments, testId, extra, after, note = null }: BalanceBarProps) {
  const total = note === null ? segments.reduce((sum, s) => sum + s.count, 0) : 0;
  const description = `${title}: ${note ?? segments.map((s) => s.text).join(', ')}`;
  return (
    <div className="balance-row" data-testid={testId}>
      <span className="balance-title">
        <span aria-hidden="true">{title}</span>
        {titleExtra}
      </span>
      <div className={note === null ? 'balance-bar' : 'balance-bar balance-bar-unknown'} role="img" aria-label={description}>
        {total > 0 &&
          segments.map((s) =>
            s.count > 0 ? <span key={s.key} className={`balance-segment balance-${s.tone}`} style={{ flexGrow: s.count }} /> : null,
          )}
      </div>
      {/* The same numbers in words for everyone (the image's label already reads them out). */}
      <p className="balance-legend">
        <span aria-hidden="true">
          {note ??
            segments.map((s, i) => (
              <span key={s.key} className={`balance-count balance-count-${s.tone}`}>
                {i > 0 && ' · '}
                <span className="balance-icon">{s.icon}</span> {s.text}
              </span>
            ))}
        </span>
        {extra && (
          <>
            <span aria-hidden="true"> · </span>
            {extra}
          </>
        )}
      </p>
      {after}
    </div>
  );
}
