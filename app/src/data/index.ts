// The only module the screens import from the data layer (docs/ARCHITECTURE.md "One front door"): create
// one CruxData at start-up, bind screens to its observables, call its actions.
//
//   const data = await createCruxData({ baseUrl: '', events: window, isOnline: () => navigator.onLine });
//   onAuthStateChanged(auth, (u) => (u ? data.signIn({ uid: u.uid, getToken: (f) => u.getIdToken(f) }) : data.signOut()));
//   data.topics$({ sort: 'hot' }).subscribe(render);
export { createCruxData } from './client.js';
export { CruxError } from '../../../shared/errors.js';
export type {
  BlockedUserView,
  FollowedTopicView,
  ConflictChoice,
  CruxData,
  CruxExport,
  CruxDataOptions,
  Draft,
  EditResponseInput,
  ExportedItem,
  LeaderboardCopy,
  MyAccount,
  NewResponseInput,
  NewTopicInput,
  RemoteCopy,
  ResponseView,
  SessionUser,
  SourceList,
  SourcesQuery,
  StorageNote,
  SyncProblem,
  SyncProblemKind,
  SyncStatus,
  TopicQuery,
  TopicView,
} from './api.js';
