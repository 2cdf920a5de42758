// Routes whose screens come in the next issue: a titled page that already works as a link target.
import { Link } from 'react-router-dom';

export function PlaceholderPage({ title, children }: { title: string; children?: React.ReactNode }) {
  return (
    <main className="page" id="main">
      <h1>{title}</h1>
      {children ?? <p className="muted">This page is coming soon.</p>}
      <p>
        <Link to="/">
          <span aria-hidden="true">← </span>Back to Topics
        </Link>
      </p>
    </main>
  );
}

/** Any address the app has no page for: a heading, what happened, and the way home. */
export function NotFoundPage() {
  return (
    <PlaceholderPage title="Page not found">
      <p>There is nothing at this address. The link may be mistyped, or the page may have moved.</p>
    </PlaceholderPage>
  );
}
