// Entry: opens the local store, follows the Firebase user into it, renders the app.
// Global tokens first: component styles imported below must win over them.
import './styles/global.css';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { BrowserRouter } from 'react-router-dom';
import { createCruxData } from './data';
import { startSession } from './auth/session';
import { followSession, toScreenStore } from './hooks/bind-store';
import { provideStore } from './hooks/store';
import { unavailableStore } from './hooks/unavailable-store';
import { App } from './App';

async function boot() {
  startSession();
  try {
    const data = await createCruxData({ baseUrl: '', events: window, isOnline: () => navigator.onLine });
    provideStore(toScreenStore(data));
    followSession(data);
  } catch (error) {
    console.error(error);
    provideStore(unavailableStore(error instanceof Error ? error.message : String(error)));
  }
  createRoot(document.getElementById('root')!).render(
    <StrictMode>
      <BrowserRouter>
        <App />
      </BrowserRouter>
    </StrictMode>,
  );
}

void boot();
