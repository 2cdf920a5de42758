// GET /api/config: what the web app reads at start-up (sync-server/src/routes/config.ts builds it,
// app/src/data/client-config.ts reads and caches it), so one build runs against the local emulator or a
// real project.
export interface ClientConfig {
  firebase: { apiKey: string; authDomain: string; projectId: string; appId?: string };
  /** "host:port" of the Auth emulator, only when the server itself uses one. */
  authEmulatorHost: string | null;
  /** The header's external Discord and Support links (DISCORD_URL, SUPPORT_URL); null hides the item. */
  discordUrl: string | null;
  supportUrl: string | null;
}
