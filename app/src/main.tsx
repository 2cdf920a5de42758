// Entry: opens the local database, follows the Firebase user into it, and renders the
// app inside the provider that hands the data layer to the screens.
// No eval under the app's CSP: set before anything parses (strict-csp.ts).
import './strict-csp';
// Global tokens first: component styles imported below must win over them.
import './styles/global.css';
import { StrictMode, type ReactNode } from 'react';
import { createRoot } from 'react-dom/client';
import { BrowserRouter } from 'react-router-dom';
import { createCruxData } from './data';
import { startSession } from './auth/session';
import { followSession } from './auth/follow-session';
import { DataProvider, UnavailableDataProvider } from './hooks/DataProvider';
import { App } from './App';

/** The app over the local database, or, when it cannot open (e.g. storage blocked), over a stand-in that says why. */
async function openApp(): Promise<ReactNode> {
  try {
    const data = await createCruxData({ baseUrl: '', events: window, isOnline: () => navigator.onLine });
    followSession(data);
    return (
      <DataProvider data={data}>
        <App />
      </DataProvider>
    );
  } catch (error) {
    console.error(error);
    return (
      <UnavailableDataProvider reason={error instanceof Error ? error.message : String(error)}>
        <App />
      </UnavailableDataProvider>
    );
  }
}

async function boot() {
  startSession();
  const app = await openApp();
  createRoot(document.getElementById('root')!).render(
    <StrictMode>
      <BrowserRouter>{app}</BrowserRouter>
    </StrictMode>,
  );
}

void boot();
