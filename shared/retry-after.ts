// A Retry-After header (RFC 9110 §10.2.3: delay-seconds or an HTTP date) as milliseconds from `now`.
// Read by the app after a 429 and by the server after a push service's 429/503.

export interface RetryAfterLimits {
  /** The longest wait believed (a broken header must not park work for days). */
  maxMs: number;
  /** The wait when the header is absent or unreadable. */
  missingMs: number;
}

export function retryAfterMs(header: string | null | undefined, now: number, limits: RetryAfterLimits): number {
  if (header == null || header.trim() === '') return limits.missingMs;
  const seconds = Number(header);
  const ms = Number.isFinite(seconds) ? seconds * 1000 : Date.parse(header) - now;
  if (!Number.isFinite(ms)) return limits.missingMs;
  return Math.min(limits.maxMs, Math.max(0, ms));
}
