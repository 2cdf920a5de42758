// A topic's title or a response's text as everyone reads it. When a moderator removed or
// hid the item, the text the server sent IS the replacement ("Removed by a moderator: …", "Hidden
// until a moderator reviews it"): it shows as a muted notice. Its author and moderators may ask for
// the original (GET /api/moderation/original), shown marked as seen by them alone.
import { useState, type ElementType, type ReactNode } from 'react';
import type { ModerationState } from '../../../../shared/constants';
import type { ModeratedOriginal } from '../../../../shared/types';
import { errorMessage } from '../../error-message';
import { useData } from '../../hooks/useData';
import { useIsModerator } from '../../hooks/useMyAccount';
import { useSession } from '../../hooks/useSession';
import './ModeratedText.css';

/** How the original is marked for the author and moderators. */
export const originalMark = (state: ModerationState) =>
  state === 'removed' ? 'Removed — only you and moderators can see this' : 'Hidden — only you and moderators can see this';

interface ModeratedTextProps {
  targetType: 'topic' | 'response';
  targetId: string;
  text: string;
  moderation: ModerationState | null;
  creatorUid: string;
  /** The element of the text (a topic's title is a heading). */
  as?: ElementType;
  id?: string;
  className?: string;
  testId?: string;
  /** What shows below a live text (a response's sources); not shown for a moderated one. */
  children?: ReactNode;
  /** How a live text renders (a response's @mentions as links); a moderated one stays plain. */
  format?: (text: string) => ReactNode;
}

export function ModeratedText({
  targetType,
  targetId,
  text,
  moderation,
  creatorUid,
  as: Tag = 'p',
  id,
  className,
  testId,
  children,
  format,
}: ModeratedTextProps) {
  const data = useData();
  const { user } = useSession();
  const moderator = useIsModerator();
  const [original, setOriginal] = useState<ModeratedOriginal | null>(null);
  const [shown, setShown] = useState(false);
  const [loading, setLoading] = useState(false);
  const [error, setError] = useState<string | null>(null);
  if (!moderation)
    return (
      <>
        <Tag id={id} className={className} data-testid={testId}>
          {format ? format(text) : text}
        </Tag>
        {children}
      </>
    );

  const isAuthor = user?.uid === creatorUid;
  const mayRead = isAuthor || moderator;
  async function toggle() {
    if (shown) {
      setShown(false);
      return;
    }
    setError(null);
    if (!original) {
      setLoading(true);
      try {
        setOriginal(await data.moderatedOriginal(targetType, targetId));
      } catch (e) {
        setError(errorMessage(e));
        return;
      } finally {
        setLoading(false);
      }
    }
    setShown(true);
  }
  const regionId = `original-${targetType}-${targetId}`;
  return (
    <>
      <Tag id={id} className={`${className ?? ''} moderated-text`} data-testid={testId} data-moderation={moderation}>
        {text}
      </Tag>
      {mayRead && (
        <div className="moderated-original">
          <button
            type="button"
            className="btn btn-small btn-ghost moderated-toggle"
            aria-expanded={shown}
            aria-controls={regionId}
            disabled={loading}
            onClick={() => void toggle()}
          >
            {shown ? 'Hide' : isAuthor ? 'Show my text' : 'Show original'}
          </button>
          {error && (
            <p className="error-text" role="alert">
              {error}
            </p>
          )}
          <div id={regionId}>
            {shown && original && (
              <div className="moderated-original-box" role="note" aria-label={originalMark(moderation)}>
                <p className="moderated-original-mark">{originalMark(moderation)}</p>
                <p className="moderated-original-text">{original.text}</p>
                {original.sources.length > 0 && (
                  <ul className="response-sources" aria-label="Sources">
                    {original.sources.map((s) => (
                      <li key={s.url}>
                        <a href={s.url} target="_blank" rel="noreferrer nofollow">
                          {s.name || s.url}
                        </a>
                      </li>
                    ))}
                  </ul>
                )}
              </div>
            )}
          </div>
        </div>
      )}
    </>
  );
}
