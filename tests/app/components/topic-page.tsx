// Renders the topic page as the app does (router, fake data layer) for the component tests.
import { Route, Routes } from 'react-router-dom';
import { of } from 'rxjs';
import type { CruxData, SyncStatus, TopicView } from '../../../app/src/data/index.js';
import { TopicPage } from '../../../app/src/routes/TopicPage';
import { fakeData } from '../../fixtures/fake-data';
import { renderWithData } from './with-data';

export const ONLINE: SyncStatus = {
  online: true,
  syncing: false,
  pending: 0,
  lastError: null,
  lastSyncedAt: null,
  isLeader: true,
  updateRequired: false,
  sessionEnded: false,
};

/** The topic page of `topic` over a fake data layer (any member can be replaced). */
export function renderTopicPage(topic: TopicView, overrides: Partial<CruxData> = {}) {
  const data = fakeData({ topic$: () => of(topic), rootResponses$: () => of([]), status$: of(ONLINE), ...overrides });
  renderWithData(
    <Routes>
      <Route path="/topics/:topicId" element={<TopicPage />} />
    </Routes>,
    data,
    `/topics/${topic.id}`,
  );
  return data;
}
