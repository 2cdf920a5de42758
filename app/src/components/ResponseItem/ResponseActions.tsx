// A response's action row: the vote (agree with the score, disagree, pass) and the one way to answer it (Reply: Agree /
// Disagree / Discuss) first; Show All / Hide All only when there are replies to show; the rest
// (This changed my view, Report, Edit, Delete, and for moderators Remove / Restore) quiet at the row's
// end on a desktop, and behind a "More" menu on a phone, where they would otherwise wrap into rows
// competing with the reply.
import { useState } from 'react';
import type { ResponseType } from '../../../../shared/constants';
import { MSG } from '../../../../shared/messages';
import type { ResponseView } from '../../hooks/useReplies';
import { useIsModerator } from '../../hooks/useMyAccount';
import { useSession } from '../../hooks/useSession';
import type { DebateStanding } from '../../hooks/useStance';
import { usePhoneLayout } from '../../hooks/usePhoneLayout';
import { useTopicWriteBlock } from '../../hooks/useWriteBlock';
import { canCreditDeltas, CHANGED_MY_VIEW, DeltaError, DeltaToggle, useDeltaCredit } from '../DeltaCredit/DeltaCredit';
import { ACTION_LABELS, ModerateButton, useModerationDialog } from '../ModerationAction/ModerationAction';
import { MoreMenu, type MoreMenuItem } from '../MoreMenu/MoreMenu';
import { ReportButton, ReportDialog } from '../ReportDialog/ReportDialog';
import { ReplyChoices } from '../Stance/Stance';
import { useSignInPrompt } from '../SignInModal/useSignInPrompt';
import { ResponseVote } from '../VoteButton/ResponseVote';

interface ResponseActionsProps {
  response: ResponseView;
  /** "response: <excerpt>", for the vote's and the report's accessible names. */
  label: string;
  expanded: boolean;
  onToggleReplies: () => void;
  onReply: (type: ResponseType) => void;
  isCreator: boolean;
  editing: boolean;
  onEdit: () => void;
  onDelete: () => void;
  standing: DebateStanding | null;
}

/** "Show All (n)" / "Hide All (n)"; none for a response nobody answered (it would open an empty list). */
function RepliesToggle({ count, expanded, onToggle }: { count: number; expanded: boolean; onToggle: () => void }) {
  if (count === 0 && !expanded) return null;
  return (
    <button type="button" className="btn btn-small btn-ghost response-replies-toggle" aria-expanded={expanded} onClick={onToggle}>
      {expanded ? 'Hide All' : 'Show All'} ({count})
    </button>
  );
}

export function ResponseActions(props: ResponseActionsProps) {
  const { response, label, expanded, onToggleReplies, onReply, standing } = props;
  const { user } = useSession();
  const phone = usePhoneLayout();
  const writeBlock = useTopicWriteBlock();
  // A suspended account's Δ is refused like its stance: not offered.
  const canCredit = writeBlock?.kind !== 'suspended' && canCreditDeltas(standing, props.isCreator, Boolean(user));
  // Held here, above the phone / desktop switch: a window resized or a tablet turned across the
  // breakpoint swaps the controls, and an open report (with its note) must not go with them.
  const [reportOpen, setReportOpen] = useState(false);
  const openReport = () => setReportOpen(true);
  // A moderator removes (or restores) any response as they read it, reported or not; the dialog is
  // held here for the same reason as the report's.
  const moderate = useModerationDialog({ targetType: 'response', targetId: response.id, what: 'response', excerpt: response.content });
  const moderation = useIsModerator() && !response.isPending ? (response.moderation ? 'restore' : 'remove') : null;
  return (
    <div className="response-actions">
      <ResponseVote response={response} label={label} />
      {!writeBlock && <ReplyChoices label="Reply" compact={phone} onPick={onReply} />}
      <RepliesToggle count={response.comment_count} expanded={expanded} onToggle={onToggleReplies} />
      {phone ? (
        <PhoneMore
          {...props}
          canCredit={canCredit}
          signedIn={Boolean(user)}
          suspended={writeBlock?.kind === 'suspended'}
          onReport={openReport}
          moderation={moderation}
          onModerate={() => moderation && moderate.open(moderation)}
        />
      ) : (
        <span className="response-secondary">
          {canCredit && <DeltaToggle responseId={response.id} standing={standing} />}
          {!props.isCreator && !response.isPending && (
            <ReportButton targetType="response" targetId={response.id} label={label} target={response.content} onOpen={openReport} />
          )}
          {props.isCreator && !props.editing && (
            <>
              {!response.moderation && writeBlock?.kind !== 'suspended' && (
                <button type="button" className="btn btn-small btn-ghost" onClick={props.onEdit}>
                  Edit
                </button>
              )}
              <button type="button" className="btn btn-small btn-ghost btn-danger" onClick={props.onDelete}>
                Delete
              </button>
            </>
          )}
          {moderation && <ModerateButton action={moderation} label={label} onOpen={() => moderate.open(moderation)} />}
        </span>
      )}
      {moderate.note}
      {moderate.dialog}
      {reportOpen && (
        <ReportDialog targetType="response" targetId={response.id} target={response.content} onClose={() => setReportOpen(false)} />
      )}
    </div>
  );
}

/** The secondary actions as a "More" menu; the Δ toggle and the report keep their own messages. */
interface PhoneMoreProps extends ResponseActionsProps {
  canCredit: boolean;
  signedIn: boolean;
  /** A suspended account's reports and edits are refused: no Report or Edit in the menu. */
  suspended: boolean;
  onReport: () => void;
  /** A moderator's action on the response (null for everyone else). */
  moderation: 'remove' | 'restore' | null;
  onModerate: () => void;
}

function PhoneMore(props: PhoneMoreProps) {
  const { response, isCreator, editing, standing, canCredit, signedIn, suspended, onReport, moderation, onModerate } = props;
  const signIn = useSignInPrompt();
  // Hooks run on every render: with no standing the toggle is never offered, the hook idles.
  const delta = useDeltaCredit(response.id, standing ?? NO_STANDING);
  const items: MoreMenuItem[] = [];
  if (canCredit)
    items.push({ label: CHANGED_MY_VIEW, icon: 'Δ', checked: delta.credited, disabled: delta.saving, onSelect: () => void delta.toggle() });
  if (!isCreator && !response.isPending && !suspended)
    items.push({ label: 'Report', onSelect: () => (signedIn ? onReport() : signIn.ask(MSG.loginToReport)) });
  if (isCreator && !editing) {
    // A suspended account's edits are refused (its deletions are not): no Edit.
    if (!response.moderation && !suspended) items.push({ label: 'Edit', onSelect: props.onEdit });
    items.push({ label: 'Delete', danger: true, onSelect: props.onDelete });
  }
  if (moderation) items.push({ label: ACTION_LABELS[moderation], danger: moderation === 'remove', onSelect: onModerate });
  return (
    <>
      {items.length > 0 && <MoreMenu items={items} className="response-more" />}
      <DeltaError error={delta.error} />
      {signIn.prompt}
    </>
  );
}

const NO_STANDING: DebateStanding = {
  stance: null,
  participants: { agree: 0, disagree: 0 },
  creditDeltas: async () => undefined,
};
