// An installed app keeps running old code until it reloads. It sends the sync
// protocol it speaks as `x-crux-sync`; a different version than the server's is
// refused with 426 `sync-outdated` before anything is read or written, and the
// app asks the person to reload. No header (curl, a script) is accepted.
import type { MiddlewareHandler } from 'hono';
import { CruxError } from '../../../shared/errors.js';
import { MSG } from '../../../shared/messages.js';
import { SYNC_PROTOCOL_HEADER, SYNC_PROTOCOL_VERSION } from '../../../shared/sync-protocol.js';

export const requireCurrentSyncProtocol: MiddlewareHandler = async (c, next) => {
  const version = c.req.header(SYNC_PROTOCOL_HEADER);
  if (version !== undefined && version !== String(SYNC_PROTOCOL_VERSION)) throw new CruxError('sync-outdated', MSG.syncOutdated);
  await next();
};
