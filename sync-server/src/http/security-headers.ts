// Response headers every answer carries: a strict Content-Security-Policy
// the built app runs under (no inline script, no eval: vite emits only external
// module scripts, vite-plugin-pwa registers the service worker from a file, and the
// local store's schema check uses z-schema rather than ajv), no framing, no MIME
// sniffing, a referrer that never carries a path to another site; and on answers to
// signed-in API calls, `Cache-Control: no-store` so no shared or disk cache keeps a
// user's own data.
import type { MiddlewareHandler } from 'hono';
import type { ClientConfig } from '../../../shared/client-config.js';

/** The Firebase Auth endpoints the web SDK calls in production (sign-in, token refresh, account lookups). */
const FIREBASE_CONNECT = ['https://identitytoolkit.googleapis.com', 'https://securetoken.googleapis.com', 'https://www.googleapis.com'];
/** The popup/redirect resolver loads Google's gapi loader and frames the project's auth domain. */
const FIREBASE_SCRIPT = ['https://apis.google.com'];

/** The Content-Security-Policy for this deployment: the Auth emulator's origin when one is configured, Firebase's otherwise. */
export function contentSecurityPolicy(config: Pick<ClientConfig, 'firebase' | 'authEmulatorHost'>): string {
  const emulator = config.authEmulatorHost ? [`http://${config.authEmulatorHost}`] : [];
  const authDomain = config.firebase.authDomain ? [`https://${config.firebase.authDomain}`] : [];
  const directives: Record<string, string[]> = {
    'default-src': ["'self'"],
    'script-src': ["'self'", ...FIREBASE_SCRIPT],
    'style-src': ["'self'"],
    'img-src': ["'self'", 'data:', 'blob:'],
    'font-src': ["'self'"],
    'connect-src': ["'self'", ...FIREBASE_CONNECT, ...emulator],
    'frame-src': [...authDomain, ...emulator],
    'worker-src': ["'self'"],
    'manifest-src': ["'self'"],
    'object-src': ["'none'"],
    'base-uri': ["'self'"],
    'form-action': ["'self'"],
    'frame-ancestors': ["'none'"],
  };
  return Object.entries(directives)
    .map(([name, sources]) => `${name} ${sources.length > 0 ? sources.join(' ') : "'none'"}`)
    .join('; ');
}

/** The headers every answer carries, by name (the fast reads send them as they are: http/fast-reads.ts). */
export function securityHeaderRecord(config: Pick<ClientConfig, 'firebase' | 'authEmulatorHost'>): Record<string, string> {
  return {
    'Content-Security-Policy': contentSecurityPolicy(config),
    'X-Content-Type-Options': 'nosniff',
    'Referrer-Policy': 'strict-origin-when-cross-origin',
    'X-Frame-Options': 'DENY',
    // Sign-in popups (Firebase) still report back to the opener.
    'Cross-Origin-Opener-Policy': 'same-origin-allow-popups',
  };
}

export function securityHeaders(config: Pick<ClientConfig, 'firebase' | 'authEmulatorHost'>): MiddlewareHandler {
  const every = Object.entries(securityHeaderRecord(config));
  return async (c, next) => {
    await next();
    const headers = c.res.headers;
    // A topic's embed page is made to be framed by other sites: it sets its own policy (routes/embed.ts).
    const embed = c.req.path.startsWith('/embed/') && headers.has('Content-Security-Policy');
    for (const [name, value] of every) {
      if (embed && (name === 'Content-Security-Policy' || name === 'X-Frame-Options')) continue;
      headers.set(name, value);
    }
    if (c.req.path.startsWith('/api/') && c.req.header('authorization') !== undefined) {
      headers.set('Cache-Control', 'no-store');
      headers.append('Vary', 'Authorization');
    }
  };
}
