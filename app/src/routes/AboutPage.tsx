// /about (SPEC.md §2): what Crux is for. Static text, part of the bundle, so it reads offline.
import { Link } from 'react-router-dom';
import './StaticPage.css';

export function AboutPage() {
  return (
    <main className="page static-page" id="main">
      <h1>About Crux</h1>
      <p>
        Crux is a place to get to the heart of a disagreement. Anyone can open a topic, a question worth arguing about, and everyone can
        answer it with arguments that agree, disagree or discuss.
      </p>
      <h2>What it is for</h2>
      <p>
        Most online discussions reward the loudest reply. Crux is built for the best one: every response says where it stands, can quote the
        argument it answers and can cite its sources, so a debate grows into a map of the reasons on each side instead of a stream of
        comments.
      </p>
      <ul>
        <li>
          <strong>Agree, Disagree, Discuss.</strong> Each response is marked for, against or neutral, with an icon and a label.
        </li>
        <li>
          <strong>Show your sources.</strong> Links to the evidence travel with the argument; the <Link to="/sources">Sources</Link> page
          lists every source cited and the arguments that cite it.
        </li>
        <li>
          <strong>Upvote what helps.</strong> Upvotes bring good topics and arguments forward and earn their authors points on the{' '}
          <Link to="/leaderboard">leaderboard</Link>.
        </li>
        <li>
          <strong>Read anywhere.</strong> Crux works offline: what you have read stays on your device, and what you write is sent when you
          are back online.
        </li>
      </ul>
      <h2>Who it is for</h2>
      <p>
        Anyone who would rather understand a question than win it. Reading needs no account; to write, vote or get notified of replies, sign
        in. Crux is not intended for people under 16 (see the <Link to="/terms">Terms and Conditions</Link>).
      </p>
      <h2>Your data</h2>
      <p>
        How we handle your data and how to ask for a copy or its deletion is described in our <Link to="/privacy">Privacy Policy</Link>.
      </p>
      <p className="static-back">
        <Link to="/">
          <span aria-hidden="true">← </span>Back to Topics
        </Link>
      </p>
    </main>
  );
}
