// /about: what Crux is for, and how it works (the first screen's intro
// links to that section). Static text, part of the bundle, so it reads offline.
import { useEffect } from 'react';
import { Link, useLocation } from 'react-router-dom';
import { HOW_CRUX_WORKS_ID } from '../components/Intro/Intro';
import './StaticPage.css';

export function AboutPage() {
  // A link to a section ("/about#how-crux-works") opens at it: the router does not scroll to it.
  const { hash } = useLocation();
  useEffect(() => {
    if (hash) document.getElementById(decodeURIComponent(hash.slice(1)))?.scrollIntoView?.();
  }, [hash]);
  return (
    <main className="page static-page" id="main">
      <h1>About Crux</h1>
      <p>
        Crux is a place to get to the heart of a disagreement. Anyone can open a topic, a question worth arguing about, and everyone can
        answer it with arguments that agree, disagree or discuss.
      </p>
      <h2 id={HOW_CRUX_WORKS_ID}>How Crux works</h2>
      <ol>
        <li>
          <strong>Say where you stand.</strong> On a topic, record whether you agree, disagree or are unsure. The stance bar shows where
          everyone taking part stands.
        </li>
        <li>
          <strong>Read the arguments.</strong> Responses agree, disagree or discuss, and answer each other, so you see the best reasons on
          each side.
        </li>
        <li>
          <strong>Change your mind, and say what did it.</strong> If your stance changes, credit the responses that changed it with “This
          changed my view”: they get a Δ (delta), and their authors earn persuasion points on the leaderboard.
        </li>
        <li>
          <strong>Find the common ground.</strong> A response upvoted by many who agree and many who disagree is marked Common ground; you
          can put those first.
        </li>
      </ol>
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
