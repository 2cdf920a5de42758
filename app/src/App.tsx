// The product's routes inside the shell (header, username modal, update prompt).
// The topic list (`/`) is in the entry so the first page paints with no second round
// trip; every other page is its own chunk, loaded when first visited (the service
// worker precaches them all, so they open offline too).
import { Suspense, type ComponentType, type ReactNode } from 'react';
import { matchPath, Route, Routes } from 'react-router-dom';
import { Header } from './components/Header/Header';
import { UsernameModal } from './components/UsernameModal/UsernameModal';
import { UpdatePrompt } from './components/UpdatePrompt/UpdatePrompt';
import { SyncIssues } from './components/SyncStatus/SyncIssues';
import { SuspensionBanner } from './components/SuspensionBanner/SuspensionBanner';
import { StorageNote } from './components/StorageNote/StorageNote';
import { PushClicks } from './push/PushClicks';
import { useUsernamePrompt } from './hooks/useUsernamePrompt';
import { TopicListPage } from './routes/TopicListPage';
import { PageFallback } from './routes/PageFallback';
import { lazyPage } from './routes/lazy-page';
import { loadMarkdown } from './components/FormattedText/useMarkdown';
import type { Topic } from '../../shared/types';

// The topic page comes with the Markdown renderer: its rows are formatted from the first paint (a
// first visit's rows come with the page), never raw `**` for a moment. A renderer that fails to load
// (an old chunk gone) leaves the rows plain rather than the page unopened.
const TopicPage = lazyPage(() =>
  Promise.all([import('./routes/TopicPage'), loadMarkdown().catch(() => undefined)]).then(([m]) => m.TopicPage),
);
const LeaderboardPage = lazyPage(() => import('./routes/LeaderboardPage').then((m) => m.LeaderboardPage));
const UserPage = lazyPage(() => import('./routes/UserPage').then((m) => m.UserPage));
const NotificationsPage = lazyPage(() => import('./routes/NotificationsPage').then((m) => m.NotificationsPage));
const SourcesPage = lazyPage(() => import('./routes/SourcesPage').then((m) => m.SourcesPage));
const AboutPage = lazyPage(() => import('./routes/AboutPage').then((m) => m.AboutPage));
const TermsPage = lazyPage(() => import('./routes/TermsPage').then((m) => m.TermsPage));
const PrivacyPage = lazyPage(() => import('./routes/PrivacyPage').then((m) => m.PrivacyPage));
const UnsubscribePage = lazyPage(() => import('./routes/UnsubscribePage').then((m) => m.UnsubscribePage));
const SettingsPage = lazyPage(() => import('./routes/SettingsPage').then((m) => m.SettingsPage));
const BlockedUsersPage = lazyPage(() => import('./routes/BlockedUsersPage').then((m) => m.BlockedUsersPage));
const DeleteAccountPage = lazyPage(() => import('./routes/DeleteAccountPage').then((m) => m.DeleteAccountPage));
const DeviceStoragePage = lazyPage(() => import('./routes/DeviceStoragePage').then((m) => m.DeviceStoragePage));
const ModerationPage = lazyPage(() => import('./routes/ModerationPage').then((m) => m.ModerationPage));
const ModerationLogPage = lazyPage(() => import('./routes/ModerationLogPage').then((m) => m.ModerationLogPage));
const NotFoundPage = lazyPage(() => import('./routes/NotFoundPage').then((m) => m.NotFoundPage));

/** The product's routes, in matching order; the last one catches every other address. */
const PAGES: { path: string; Page: ComponentType & { preload?: () => Promise<void> } }[] = [
  { path: '/', Page: TopicListPage },
  { path: '/c/:category', Page: TopicListPage },
  { path: '/topics/:topicId', Page: TopicPage },
  // One response's own address (its share card names it): the topic, scrolled to that response.
  { path: '/topics/:topicId/responses/:responseId', Page: TopicPage },
  { path: '/leaderboard', Page: LeaderboardPage },
  { path: '/users/:uid', Page: UserPage },
  { path: '/about', Page: AboutPage },
  { path: '/terms', Page: TermsPage },
  { path: '/privacy', Page: PrivacyPage },
  { path: '/notifications', Page: NotificationsPage },
  { path: '/unsubscribe', Page: UnsubscribePage },
  { path: '/sources', Page: SourcesPage },
  { path: '/settings', Page: SettingsPage },
  { path: '/settings/blocked', Page: BlockedUsersPage },
  { path: '/settings/device', Page: DeviceStoragePage },
  { path: '/settings/delete-account', Page: DeleteAccountPage },
  { path: '/moderation', Page: ModerationPage },
  { path: '/moderation/log', Page: ModerationLogPage },
  { path: '*', Page: NotFoundPage },
];

/** Loads the chunk of the page at `pathname` (main.tsx, before the first render: see lazy-page.ts). */
export async function preloadPage(pathname: string): Promise<void> {
  const match = PAGES.find(({ path }) => path === '*' || matchPath(path, pathname) !== null);
  await match?.Page.preload?.();
}

interface AppProps {
  /** A first visit's topic (the server's first screen): its head shows while its page's chunk loads. */
  firstTopic?: Topic | null;
  /** Shows that head in the page's place without asking for the page's chunk yet (main.tsx). */
  holdPage?: boolean;
  /** Committed with the page, never with the fallback shown while a page's chunk loads. */
  children?: ReactNode;
}

export function App({ firstTopic = null, holdPage = false, children }: AppProps) {
  const usernamePrompt = useUsernamePrompt();
  return (
    <>
      <a href="#main" className="skip-link">
        Skip to content
      </a>
      <Header />
      <SyncIssues />
      <SuspensionBanner />
      <StorageNote />
      {holdPage ? (
        <PageFallback firstTopic={firstTopic} />
      ) : (
        <Suspense fallback={<PageFallback firstTopic={firstTopic} />}>
          <Routes>
            {PAGES.map(({ path, Page }) => (
              <Route key={path} path={path} element={<Page />} />
            ))}
          </Routes>
          {children}
        </Suspense>
      )}
      {usernamePrompt.open && <UsernameModal onClose={usernamePrompt.dismiss} />}
      <UpdatePrompt />
      <PushClicks />
    </>
  );
}
