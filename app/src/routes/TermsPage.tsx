// /terms: the terms and conditions; people under 16 are not intended users;
// last updated July 19, 2025. Static text, part of the bundle, so it reads offline. Questions go
// through the Support link only when SUPPORT_URL is configured; unset, the page names none.
import { Link } from 'react-router-dom';
import { SupportSentence } from '../components/SupportLink/SupportLink';
import './StaticPage.css';

export const TERMS_UPDATED = 'Last updated: July 19, 2025';

export function TermsPage() {
  return (
    <main className="page static-page" id="main">
      <h1>Terms and Conditions</h1>
      <p className="static-updated">{TERMS_UPDATED}</p>
      <p>
        These terms apply to your use of Crux, the website and app for structured debate. By using Crux you agree to them. If you do not
        agree, please do not use Crux.
      </p>
      <h2>1. Who may use Crux</h2>
      <p>
        Crux is not intended for children: people under 16 are not intended users and may not create an account. If you are under 16, please
        do not sign in or post. If we learn that an account belongs to someone under 16, we will remove it and its data.
      </p>
      <h2>2. Your account</h2>
      <p>
        You sign in through our identity provider (Google, Twitter or e-mail and password). You are responsible for what is done with your
        account and for keeping your sign-in details safe. Your username is shown with what you post; choose one that does not impersonate
        anyone.
      </p>
      <h2>3. What you post</h2>
      <p>
        You keep the rights to the topics, responses and sources you post. By posting you give Crux a worldwide, non-exclusive, royalty-free
        licence to store, show and distribute them as part of the service, for as long as they are on Crux. You can delete your topics and
        responses at any time; deleting a response also deletes the replies to it.
      </p>
      <h2>4. Rules of conduct</h2>
      <ul>
        <li>Argue with the idea, not the person: no harassment, threats or hate speech.</li>
        <li>Do not post anything illegal, anything that infringes someone else&apos;s rights, spam or malware links.</li>
        <li>Cite sources honestly: do not misrepresent what a source says.</li>
        <li>Do not manipulate votes or points, for example with several accounts.</li>
      </ul>
      <p>We may remove content or suspend accounts that break these rules.</p>
      <h2>5. Points and the leaderboard</h2>
      <p>Points and ranks are a way to recognise helpful contributions. They have no monetary value and may be recalculated.</p>
      <h2>6. Availability and liability</h2>
      <p>
        Crux is provided as it is. We try to keep it running and your data safe, but we cannot promise that it will always be available or
        free of errors. Arguments on Crux are the views of their authors, not advice. To the extent the law allows, we are not liable for
        losses arising from your use of Crux.
      </p>
      <h2>7. Changes to these terms</h2>
      <p>
        We may update these terms. The date at the top shows when they last changed; if a change is significant we will say so on the site.
        Using Crux after a change means you accept the new terms.
      </p>
      <h2>8. Contact</h2>
      <p>
        <SupportSentence>{(support) => <>Questions about these terms: ask us through {support}. </>}</SupportSentence>How we handle personal
        data is described in our <Link to="/privacy">Privacy Policy</Link>.
      </p>
      <p className="static-back">
        <Link to="/">
          <span aria-hidden="true">← </span>Back to Topics
        </Link>
      </p>
    </main>
  );
}
