// Any address the app has no page for: a heading, what happened, and the way home.
import { Link } from 'react-router-dom';

export function NotFoundPage() {
  return (
    <main className="page" id="main">
      <h1>Page not found</h1>
      <p>There is nothing at this address. The link may be mistyped, or the page may have moved.</p>
      <p>
        <Link to="/">
          <span aria-hidden="true">← </span>Back to Topics
        </Link>
      </p>
    </main>
  );
}
