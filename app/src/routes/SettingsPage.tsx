// /settings: everything the signed-in user sets, on one page, one section each: account (name,
// logout), the weekly summary e-mail, push on this device and what it sends, quiet hours, follows,
// blocked users, what this device keeps, and their data. Reached from the header menu (Settings);
// the old addresses (/unsubscribe, /settings/blocked, /settings/device) still open their own pages.
// Signed out, only what belongs to the device is here.
import { useEffect, useState, type ReactNode } from 'react';
import { Link, useLocation } from 'react-router-dom';
import { useSession } from '../hooks/useSession';
import { SET_USERNAME_LABEL, useUsernamePrompt } from '../hooks/useUsernamePrompt';
import { PushSettings } from '../components/PushSettings/PushSettings';
import { AutoFollow, PUSH_KINDS_TEXT, QuietHours } from '../components/PushSettings/PushKinds';
import { usePushPreferences } from '../components/PushSettings/usePushPreferences';
import { WeeklySummary } from '../components/WeeklySummary/WeeklySummary';
import { MyDataMenuItems } from '../components/MyDataPanel/MyDataPanel';
import { SignOutDialog } from '../components/SignOutDialog/SignOutDialog';
import { BLOCKED_USERS_LINK } from '../components/BlockButton/blocked-users-link';
import { BlockedUsersList } from './BlockedUsersPage';
import { DEVICE_STORAGE_TITLE } from './DeviceStoragePage';
import './SettingsPage.css';

export const SETTINGS_TEXT = {
  title: 'Settings',
  signedOut: 'Log in to change your account, e-mail and notification settings.',
  account: 'Account',
  username: 'Username',
  logout: 'Logout',
  email: 'Email Subscriptions',
  follows: 'Follows',
  followedLink: 'See the topics you follow (on your page)',
  device: DEVICE_STORAGE_TITLE,
  deviceExplain: 'Crux keeps the topics you have seen on this device so you can read them offline.',
  deviceLink: 'Storage on this device',
  myData: 'My data',
  remove: 'Remove my data from this device',
  removeExplain: 'Logs you out and deletes your votes, notifications, drafts and kept topics from this browser; your posts stay on Crux.',
  deleteAccount: 'Delete my account',
  deleteAccountExplain: 'Deletes your account from Crux itself, with the choice to delete or anonymise what you wrote.',
} as const;

export function SettingsPage() {
  const { ready, user } = useSession();
  const { hash } = useLocation();
  // A link to one section (e.g. the notifications page's to push): the page is lazy, so the browser's own jump came too early.
  useEffect(() => {
    if (hash) document.getElementById(decodeURIComponent(hash.slice(1)))?.scrollIntoView();
  }, [hash, ready]);
  return (
    <main className="page settings-page" id="main">
      <h1>{SETTINGS_TEXT.title}</h1>
      {ready && !user && <p className="status-text">{SETTINGS_TEXT.signedOut}</p>}
      {/* While the session is still being restored (a reload, offline too), not the signed-out page. */}
      {user ? (
        <SignedInSections />
      ) : ready ? (
        <DeviceSection />
      ) : (
        <p className="status-text" role="status">
          Loading settings...
        </p>
      )}
    </main>
  );
}

function DeviceSection() {
  return (
    <Section id="device" title={SETTINGS_TEXT.device}>
      <p className="muted">{SETTINGS_TEXT.deviceExplain}</p>
      <p>
        <Link to="/settings/device" className="settings-link">
          {SETTINGS_TEXT.deviceLink}
        </Link>
      </p>
    </Section>
  );
}

function SignedInSections() {
  const prefs = usePushPreferences();
  const [signOut, setSignOut] = useState<'logout' | 'remove' | null>(null);
  return (
    <>
      <Section id="account" title={SETTINGS_TEXT.account}>
        <AccountName />
        <button type="button" className="btn" aria-haspopup="dialog" onClick={() => setSignOut('logout')}>
          {SETTINGS_TEXT.logout}
        </button>
      </Section>
      <Section id="email" title={SETTINGS_TEXT.email}>
        <WeeklySummary />
      </Section>
      <div id="push">
        <PushSettings prefs={prefs} />
      </div>
      <Section id="quiet-hours" title={PUSH_KINDS_TEXT.quietHeading}>
        <QuietHours prefs={prefs} />
      </Section>
      <Section id="follows" title={SETTINGS_TEXT.follows}>
        <AutoFollow prefs={prefs} />
        <FollowedLink />
      </Section>
      <Section id="blocked" title={BLOCKED_USERS_LINK}>
        <BlockedUsersList />
      </Section>
      <DeviceSection />
      <Section id="my-data" title={SETTINGS_TEXT.myData}>
        <div className="settings-actions">
          <MyDataMenuItems />
        </div>
        <p className="muted">{SETTINGS_TEXT.removeExplain}</p>
        <button type="button" className="btn" aria-haspopup="dialog" onClick={() => setSignOut('remove')}>
          {SETTINGS_TEXT.remove}
        </button>
        <p className="muted">{SETTINGS_TEXT.deleteAccountExplain}</p>
        <p>
          <Link to="/settings/delete-account" className="settings-link">
            {SETTINGS_TEXT.deleteAccount}
          </Link>
        </p>
      </Section>
      {signOut && <SignOutDialog removeData={signOut === 'remove'} onClose={() => setSignOut(null)} />}
    </>
  );
}

function FollowedLink() {
  const { user } = useSession();
  if (!user) return null;
  return (
    <p>
      <Link to={`/users/${encodeURIComponent(user.uid)}`} className="settings-link">
        {SETTINGS_TEXT.followedLink}
      </Link>
    </p>
  );
}

function AccountName() {
  const { user } = useSession();
  const prompt = useUsernamePrompt();
  if (!user) return null;
  return (
    <p className="settings-row">
      <span className="muted">{SETTINGS_TEXT.username}: </span>
      {user.displayName ? (
        <Link to={`/users/${encodeURIComponent(user.uid)}`}>{user.displayName}</Link>
      ) : (
        <button type="button" className="btn btn-small" aria-haspopup="dialog" onClick={prompt.show}>
          {SET_USERNAME_LABEL}
        </button>
      )}
    </p>
  );
}

function Section({ id, title, children }: { id: string; title: string; children: ReactNode }) {
  return (
    <section id={id} className="settings-section" aria-labelledby={`${id}-heading`}>
      <h2 id={`${id}-heading`}>{title}</h2>
      {children}
    </section>
  );
}
