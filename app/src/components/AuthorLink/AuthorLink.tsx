// An author's name as a link to their page (/users/{uid}); 'Anonymous' when they set no name.
import { Link } from 'react-router-dom';
import { authorName } from '../../../../shared/rules/author-name';
import './AuthorLink.css';

export function AuthorLink({ uid, name, className }: { uid: string; name: string | null | undefined; className?: string }) {
  return (
    <Link to={`/users/${encodeURIComponent(uid)}`} className={`author-link${className ? ` ${className}` : ''}`}>
      {authorName(name)}
    </Link>
  );
}
