// /privacy: the privacy policy; requests are answered within one month; last
// updated July 19, 2025. Static text, part of the bundle, so it reads offline. Requests go
// through the Support link only when SUPPORT_URL is configured; unset, the page names none.
import { Link } from 'react-router-dom';
import { SupportSentence } from '../components/SupportLink/SupportLink';
import './StaticPage.css';

export const PRIVACY_UPDATED = 'Last updated: July 19, 2025';

export function PrivacyPage() {
  return (
    <main className="page static-page" id="main">
      <h1>Privacy Policy</h1>
      <p className="static-updated">{PRIVACY_UPDATED}</p>
      <p>This policy explains what personal data Crux keeps, why, and what you can ask of us.</p>
      <h2>1. What we keep</h2>
      <ul>
        <li>
          <strong>Account:</strong> the user id, e-mail address and display name from our identity provider when you sign in.
        </li>
        <li>
          <strong>What you post:</strong> your topics, responses, sources and upvotes, with their times. Topics, responses and your display
          name are public.
        </li>
        <li>
          <strong>Notifications and preferences:</strong> replies to your posts and whether you receive the weekly summary e-mail.
        </li>
        <li>
          <strong>Technical data:</strong> server logs (such as IP address and request times) kept for a short time to keep the service
          secure.
        </li>
      </ul>
      <p>We do not sell personal data and do not use it for advertising.</p>
      <h2>2. On your device</h2>
      <p>
        So that Crux works offline, what you read and write is stored in your browser. When you log out you can remove your data from the
        device. You can also download your data, or remove it from this device, under My data in Settings.
      </p>
      <h2>3. Why we use it</h2>
      <p>
        To run the service you asked for (showing and syncing your posts, notifications and points), to send the weekly summary if you opted
        in, and to keep Crux safe from abuse.
      </p>
      <h2>4. Who else sees it</h2>
      <p>
        Our identity provider handles sign-in, and our hosting provider stores the data on our behalf. We share data with others only when
        the law requires it.
      </p>
      <h2>5. How long we keep it</h2>
      <p>
        Account data is kept while your account exists. Deleted topics and responses are removed from what Crux shows at once and from our
        database and backups within a reasonable period.
      </p>
      <p>
        You can delete your account yourself at <Link to="/settings/delete-account">Delete my account</Link> (also in Settings, under My
        data). You choose whether the topics and responses you wrote are deleted or kept under the name &quot;deleted user&quot;; your
        votes, stances, follows, blocks, reports, notifications, e-mail address and preferences are deleted either way, and so is your
        sign-in account. Copies in our database backups are not edited: they disappear when those backups are replaced, within about a week,
        and if we ever restore one from before your deletion, we delete your account again.
      </p>
      <h2>6. Your rights</h2>
      <p>
        You can ask to see, correct, export or delete your personal data, or object to how we use it. Requests are answered within one
        month. <SupportSentence>{(support) => <>Send them to us through {support}. </>}</SupportSentence>People under 16 are not intended
        users of Crux (see the <Link to="/terms">Terms and Conditions</Link>).
      </p>
      <h2>7. Changes to this policy</h2>
      <p>We may update this policy; the date at the top shows when it last changed.</p>
      <p className="static-back">
        <Link to="/">
          <span aria-hidden="true">← </span>Back to Topics
        </Link>
      </p>
    </main>
  );
}
