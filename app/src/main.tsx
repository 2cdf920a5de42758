// Entry: renders the app at once over a data layer that is still opening (data/deferred.ts),
// then opens the local database (RxDB, Dexie and the replication are a chunk of their own, fetched
// in parallel) and follows the Firebase user into it (the Firebase SDK loads after the first paint).
// No eval under the app's CSP: zod is told before this module runs (public/strict-csp.js, loaded first by index.html).
// Global tokens first: component styles imported below must win over them.
import './styles/global.css';
import { startTransition, StrictMode, useEffect } from 'react';
import { createRoot } from 'react-dom/client';
import { BrowserRouter } from 'react-router-dom';
import type { CruxData } from './data';
import { getSession, startSession, subscribeSession } from './auth/session';
import { followSession } from './auth/follow-session';
import { DataProvider } from './context/DataProvider';
import { deferredData } from './data/deferred';
import { firstPageReads, readFirstPage } from './data/first-page';
import { unavailableData } from './data/unavailable';
import { App, preloadPage } from './App';
import { errorMessage } from './error-message';
import { keepFirstScreen } from './service-worker/keep-first-screen';
import { firstValuesAtOnce } from './hooks/useObservable';

/** The local database, or, when it cannot open (e.g. storage blocked), a stand-in that says why. */
async function openData(): Promise<CruxData> {
  try {
    const { createCruxData } = await import('./data');
    // sessionKnown is set below, before the first paint lets this run.
    const data = await createCruxData({ baseUrl: '', events: window, isOnline: () => navigator.onLine, sessionKnown });
    followSession(data);
    return data;
  } catch (error) {
    console.error(error);
    return unavailableData(errorMessage(error));
  }
}

/**
 * Resolves once the browser has painted the shell (its first contentful paint): the data layer's
 * chunk is not fetched before. A tab opened in the background paints nothing: it goes on after 1 s.
 */
function afterFirstPaint(): Promise<void> {
  return new Promise((resolve) => {
    const fallback = setTimeout(resolve, 1000);
    try {
      const observer = new PerformanceObserver((list) => {
        if (!list.getEntriesByName('first-contentful-paint').length) return;
        observer.disconnect();
        clearTimeout(fallback);
        resolve();
      });
      observer.observe({ type: 'paint', buffered: true });
    } catch {
      /* no paint timing: the fallback decides */
    }
  });
}

/** Resolves once React's first render is committed (KeepFirstScreen, below) and a frame drawn after it. */
let appRendered: () => void = () => undefined;
const appFirstRender = new Promise<void>((resolve) => (appRendered = resolve));
// A kept topic page's first screen in the HTML (service-worker/first-screen.ts) is the first paint,
// before any script: the data layer and Firebase still wait for the app's own first render.
const keptScreen = (document.getElementById('root')?.childElementCount ?? 0) > 0;
const firstPage = readFirstPage();
// A first visit to a topic's page (the server's page: no service worker answers yet): its chunk and the
// Markdown renderer are still on the network, so the app renders at once with the topic's head in the
// page's place (routes/PageFallback.tsx) instead of waiting for them with nothing on screen.
const firstVisitTopic = firstPage?.topic && !keptScreen && !navigator.serviceWorker?.controller ? firstPage.topic : null;
// The page the app opens at renders with its chunk already in (routes/lazy-page.ts). That first
// visit's topic page draws its head first (below) and fetches its chunk after that paint: before it,
// the chunk and the Markdown renderer would share a phone's network with the entry the head needs.
const pageLoaded = (firstVisitTopic ? afterFirstPaint() : Promise.resolve())
  .then(() => preloadPage(window.location.pathname))
  .catch(() => undefined);
// The data layer is fetched only once the page itself is drawn: before that it would compete with
// the page's chunks (a chunk that failed to load leaves the page to its Suspense: then after 1 s).
const pageDrawn = () => pageLoaded.then(() => Promise.race([appFirstRender, new Promise<void>((resolve) => setTimeout(resolve, 1000))]));
const firstPaint = keptScreen
  ? Promise.all([afterFirstPaint(), appFirstRender]).then(() => undefined)
  : firstVisitTopic
    ? Promise.all([afterFirstPaint(), pageDrawn()]).then(() => undefined)
    : afterFirstPaint();
const dataReady = firstPaint.then(openData);
// Firebase Auth loads right after the first paint when someone is signed in on this device, else
// only on a sign-in (auth/session.ts): never before the first paint.
startSession(firstPaint);
/**
 * Settles once Firebase has restored (or not) the persisted user. Subscribed before followSession
 * (openData), so on that publish followSession has already started the sign-in when this settles:
 * the data layer's calls made as the user wait for it, then for that sign-in (data/session.ts).
 */
const sessionKnown = new Promise<void>((resolve) => {
  const unsubscribe = subscribeSession(() => {
    if (!getSession().ready) return;
    unsubscribe();
    resolve();
  });
  if (getSession().ready) {
    unsubscribe();
    resolve();
  }
});
/**
 * Once React has committed its first render (a kept topic page's title and first rows, from its
 * embedded data): that markup is kept for the worker's next answer of this page
 * (service-worker/keep-first-screen.ts), and sources are read by their effects alone from now on.
 */
function KeepFirstScreen() {
  useEffect(() => {
    firstValuesAtOnce(false);
    void keepFirstScreen();
    requestAnimationFrame(() => setTimeout(appRendered, 0));
    setTimeout(appRendered, 1000); // a background tab draws no frame
  }, []);
  return null;
}

const data = deferredData(dataReady, firstPageReads(firstPage));
// The first screen's rows in the first commit (hooks/useObservable.ts), until KeepFirstScreen runs.
firstValuesAtOnce(firstPage !== null);
const root = createRoot(document.getElementById('root')!);
const app = (holdPage: boolean) => (
  <StrictMode>
    <BrowserRouter>
      <DataProvider data={data}>
        <App firstTopic={firstVisitTopic} holdPage={holdPage}>
          <KeepFirstScreen />
        </App>
      </DataProvider>
    </BrowserRouter>
  </StrictMode>
);
// A render of the whole app is a transition: React renders it in slices of a few milliseconds and
// yields between them, so a phone's main thread is not held for the whole page (a topic page's first
// render was one task of 400 ms at 4× CPU); only the commit is one task. Not over a kept page's
// markup: that has no handlers, and a press made on it between two slices would be lost (in one
// task, the press waits and lands on the app's own element).
const render = (holdPage: boolean) => (keptScreen ? root.render(app(holdPage)) : startTransition(() => root.render(app(holdPage))));
// A first visit's topic page draws its head at once and asks for its chunk only after that paint; a
// chunk that cannot load is left to the page's own Suspense, which asks again.
if (firstVisitTopic) render(true);
void pageLoaded.then(() => render(false));
