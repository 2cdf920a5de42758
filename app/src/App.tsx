// Routes of SPEC.md §2 inside the shell (header, username modal, update prompt).
import { Route, Routes } from 'react-router-dom';
import { NotificationsPage } from './routes/NotificationsPage';
import { LeaderboardPage } from './routes/LeaderboardPage';
import { UserPage } from './routes/UserPage';
import { Header } from './components/Header/Header';
import { UsernameModal } from './components/UsernameModal/UsernameModal';
import { UpdatePrompt } from './components/UpdatePrompt/UpdatePrompt';
import { SyncIssues } from './components/SyncStatus/SyncIssues';
import { useUsernamePrompt } from './hooks/useUsernamePrompt';
import { TopicListPage } from './routes/TopicListPage';
import { TopicPage } from './routes/TopicPage';
import { SourcesPage } from './routes/SourcesPage';
import { AboutPage } from './routes/AboutPage';
import { TermsPage } from './routes/TermsPage';
import { PrivacyPage } from './routes/PrivacyPage';
import { NotFoundPage } from './routes/PlaceholderPage';
import { UnsubscribePage } from './routes/UnsubscribePage';

export function App() {
  const usernamePrompt = useUsernamePrompt();
  return (
    <>
      <a href="#main" className="skip-link">
        Skip to content
      </a>
      <Header />
      <SyncIssues />
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
      {usernamePrompt.open && <UsernameModal onClose={usernamePrompt.dismiss} />}
      <UpdatePrompt />
    </>
  );
}
