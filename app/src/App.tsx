// Routes of SPEC.md §2 inside the shell (header, username modal, update prompt).
// The topic list (`/`) is in the entry so the first page paints with no second round
// trip; every other page is its own chunk, loaded when first visited (the service
// worker precaches them all, so they open offline too).
import { lazy, Suspense } from 'react';
import { Route, Routes } from 'react-router-dom';
import { Header } from './components/Header/Header';
import { UsernameModal } from './components/UsernameModal/UsernameModal';
import { UpdatePrompt } from './components/UpdatePrompt/UpdatePrompt';
import { SyncIssues } from './components/SyncStatus/SyncIssues';
import { useUsernamePrompt } from './hooks/useUsernamePrompt';
import { TopicListPage } from './routes/TopicListPage';

const TopicPage = lazy(() => import('./routes/TopicPage').then((m) => ({ default: m.TopicPage })));
const LeaderboardPage = lazy(() => import('./routes/LeaderboardPage').then((m) => ({ default: m.LeaderboardPage })));
const UserPage = lazy(() => import('./routes/UserPage').then((m) => ({ default: m.UserPage })));
const NotificationsPage = lazy(() => import('./routes/NotificationsPage').then((m) => ({ default: m.NotificationsPage })));
const SourcesPage = lazy(() => import('./routes/SourcesPage').then((m) => ({ default: m.SourcesPage })));
const AboutPage = lazy(() => import('./routes/AboutPage').then((m) => ({ default: m.AboutPage })));
const TermsPage = lazy(() => import('./routes/TermsPage').then((m) => ({ default: m.TermsPage })));
const PrivacyPage = lazy(() => import('./routes/PrivacyPage').then((m) => ({ default: m.PrivacyPage })));
const UnsubscribePage = lazy(() => import('./routes/UnsubscribePage').then((m) => ({ default: m.UnsubscribePage })));
const NotFoundPage = lazy(() => import('./routes/NotFoundPage').then((m) => ({ default: m.NotFoundPage })));

/** While a page's chunk loads: the page's own empty box, so nothing below the header jumps. */
function PageFallback() {
  return <main className="page" id="main" aria-busy="true" />;
}

export function App() {
  const usernamePrompt = useUsernamePrompt();
  return (
    <>
      <a href="#main" className="skip-link">
        Skip to content
      </a>
      <Header />
      <SyncIssues />
      <Suspense fallback={<PageFallback />}>
        <Routes>
          <Route path="/" element={<TopicListPage />} />
          <Route path="/c/:category" element={<TopicListPage />} />
          <Route path="/topics/:topicId" element={<TopicPage />} />
          <Route path="/leaderboard" element={<LeaderboardPage />} />
          <Route path="/users/:uid" element={<UserPage />} />
          <Route path="/about" element={<AboutPage />} />
          <Route path="/terms" element={<TermsPage />} />
          <Route path="/privacy" element={<PrivacyPage />} />
          <Route path="/notifications" element={<NotificationsPage />} />
          <Route path="/unsubscribe" element={<UnsubscribePage />} />
          <Route path="/sources" element={<SourcesPage />} />
          <Route path="*" element={<NotFoundPage />} />
        </Routes>
      </Suspense>
      {usernamePrompt.open && <UsernameModal onClose={usernamePrompt.dismiss} />}
      <UpdatePrompt />
    </>
  );
}
