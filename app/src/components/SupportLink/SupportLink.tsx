// The operators' Support link in a page's text (Privacy, Terms): SUPPORT_URL from /api/config,
// as in the header menu. Unset, it renders nothing, so a page says nothing about a link that
// does not exist: `children` is the sentence around it, given the link.
import type { ReactNode } from 'react';
import { useSiteLinks } from '../../hooks/useSiteLinks';

export function SupportSentence({ children }: { children: (link: ReactNode) => ReactNode }) {
  const { supportUrl } = useSiteLinks();
  if (!supportUrl) return null;
  return (
    <>
      {children(
        <a href={supportUrl} target="_blank" rel="noopener noreferrer">
          Support<span className="visually-hidden"> (opens in a new tab)</span>
        </a>,
      )}
    </>
  );
}
