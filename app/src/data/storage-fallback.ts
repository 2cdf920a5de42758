// Storage that can fail: IndexedDB may not open (a private window, a browser that refuses it) or may
// refuse a write (QuotaExceededError: the device or the origin's quota is full). The app then keeps
// working in memory rather than failing: each RxDB storage instance starts on the persistent storage
// and, at its first such failure, moves to an in-memory instance for the rest of this page's life,
// with the documents it held copied across, and the write that failed made there. What moved is
// reported (`onShortfall`) so the screens can say what this device could not keep.
import { Subject, type Observable, type Subscription } from 'rxjs';
import {
  getChangedDocumentsSince,
  type BulkWriteRow,
  type EventBulk,
  type RxStorage,
  type RxStorageBulkWriteResponse,
  type RxStorageChangeEvent,
  type RxStorageInstance,
  type RxStorageInstanceCreationParams,
} from 'rxdb';

/** Why the data left the device's storage: it could not be opened, or it was full. */
export type StorageFailure = 'unavailable' | 'full';

export interface StorageShortfall {
  failure: StorageFailure;
  /** The RxDB database (`crux-public`, a user's) and the store within it that is kept in memory now. */
  databaseName: string;
  collectionName: string;
}

/** Copies a store's documents across in pages of this many. */
const COPY_PAGE = 500;

/** The error a write raises when the quota is used up, however deep the wrappers (Dexie's `inner`, `cause`). */
export function isQuotaError(error: unknown): boolean {
  for (let e = error as { name?: unknown; inner?: unknown; cause?: unknown } | undefined, depth = 0; e && depth < 5; depth++) {
    if (e.name === 'QuotaExceededError' || e.name === 'NS_ERROR_DOM_QUOTA_REACHED') return true;
    e = (e.inner ?? e.cause) as typeof e;
  }
  return false;
}

// Any document and storage internals: this wrapper reads none of them.
type Instance = RxStorageInstance<unknown, unknown, unknown>;
type Params = RxStorageInstanceCreationParams<unknown, unknown>;
type Changes = EventBulk<RxStorageChangeEvent<unknown>, unknown>;

/** Whether the persistent instance opened: Dexie opens its database behind `internals`, a promise. */
async function opened(instance: Instance): Promise<boolean> {
  try {
    await (instance.internals as unknown);
    return true;
  } catch {
    return false;
  }
}

/** Every document of `from` (deleted ones too) written into the empty `to`. */
async function copyInto(from: Instance, to: Instance): Promise<void> {
  let checkpoint: unknown;
  for (;;) {
    const page = await getChangedDocumentsSince(from, COPY_PAGE, checkpoint);
    if (page.documents.length > 0) {
      await to.bulkWrite(
        page.documents.map((document) => ({ document })),
        'storage-fallback-copy',
      );
    }
    if (page.documents.length < COPY_PAGE) return;
    checkpoint = page.checkpoint;
  }
}

/**
 * One store: the persistent instance until it fails, then the in-memory one. RxDB subscribes to
 * `changeStream()` once, so the events of both come out of one subject.
 */
class FallbackInstance implements Instance {
  readonly databaseName: string;
  readonly collectionName: string;
  readonly schema: Instance['schema'];
  readonly options: Instance['options'];
  private current: Instance;
  private moving: Promise<Instance> | null = null;
  private readonly changes = new Subject<Changes>();
  private readonly subscriptions: Subscription[] = [];

  constructor(
    persistent: Instance,
    private readonly params: Params,
    private readonly memory: RxStorage<unknown, unknown>,
    private readonly onShortfall: (shortfall: StorageShortfall) => void,
  ) {
    this.current = persistent;
    this.databaseName = persistent.databaseName;
    this.collectionName = persistent.collectionName;
    this.schema = persistent.schema;
    this.options = persistent.options;
    this.subscriptions.push(persistent.changeStream().subscribe(this.changes));
  }

  get internals() {
    return this.current.internals;
  }

  /** The in-memory instance, holding what the persistent one held (made once, whoever asks first). */
  private moveToMemory(failure: StorageFailure): Promise<Instance> {
    this.moving ??= (async () => {
      const persistent = this.current;
      const memory = (await this.memory.createStorageInstance(this.params)) as Instance;
      await copyInto(persistent, memory);
      this.subscriptions.push(memory.changeStream().subscribe(this.changes));
      this.current = memory;
      this.onShortfall({ failure, databaseName: this.databaseName, collectionName: this.collectionName });
      return memory;
    })();
    return this.moving;
  }

  /** The instance to use now: a move under way is waited for, so no call lands on the old one after it. */
  private async use(): Promise<Instance> {
    return this.moving ?? this.current;
  }

  async bulkWrite(rows: BulkWriteRow<unknown>[], context: string): Promise<RxStorageBulkWriteResponse<unknown>> {
    const instance = await this.use();
    try {
      return await instance.bulkWrite(rows, context);
    } catch (error) {
      if (this.moving || !isQuotaError(error)) throw error;
      // The failed transaction wrote nothing: the rows' `previous` states are what is copied across.
      return (await this.moveToMemory('full')).bulkWrite(rows, context);
    }
  }

  async findDocumentsById(ids: string[], withDeleted: boolean) {
    return (await this.use()).findDocumentsById(ids, withDeleted);
  }

  async query(preparedQuery: Parameters<Instance['query']>[0]) {
    return (await this.use()).query(preparedQuery);
  }

  async count(preparedQuery: Parameters<Instance['count']>[0]) {
    return (await this.use()).count(preparedQuery);
  }

  async getAttachmentData(documentId: string, attachmentId: string, digest: string) {
    return (await this.use()).getAttachmentData(documentId, attachmentId, digest);
  }

  async getChangedDocumentsSince(limit: number, checkpoint?: unknown) {
    return getChangedDocumentsSince(await this.use(), limit, checkpoint);
  }

  changeStream(): Observable<Changes> {
    return this.changes.asObservable();
  }

  async cleanup(minimumDeletedTime: number) {
    return (await this.use()).cleanup(minimumDeletedTime);
  }

  async close() {
    await this.closeAll((instance) => instance.close());
  }

  async remove() {
    await this.closeAll((instance) => instance.remove());
  }

  private async closeAll(end: (instance: Instance) => Promise<void>) {
    const persistent = this.moving ? null : this.current;
    const memory = this.moving ? await this.moving.catch(() => null) : null;
    for (const subscription of this.subscriptions) subscription.unsubscribe();
    this.changes.complete();
    // After a move the persistent instance stays open underneath (its state was copied): it ends too.
    await Promise.all([persistent, memory].filter((i): i is Instance => i !== null).map(end));
  }
}

/**
 * `storage` whose instances keep working in `memory` when the persistent storage cannot be opened
 * (from the start) or runs out of quota (from that write on), each move reported once to `onShortfall`.
 */
export function keepInMemoryOnFailure<Internals, Options>(
  storage: RxStorage<Internals, Options>,
  memory: RxStorage<unknown, unknown>,
  onShortfall: (shortfall: StorageShortfall) => void,
): RxStorage<Internals, Options> {
  const wrapped: RxStorage<Internals, Options> = Object.create(storage);
  wrapped.createStorageInstance = async <Doc>(params: RxStorageInstanceCreationParams<Doc, Options>) => {
    const anyParams = params as unknown as Params;
    let persistent: Instance | null = null;
    try {
      persistent = (await storage.createStorageInstance(params)) as unknown as Instance;
    } catch {
      persistent = null;
    }
    if (!persistent || !(await opened(persistent))) {
      await persistent?.close().catch(() => undefined);
      onShortfall({ failure: 'unavailable', databaseName: params.databaseName, collectionName: params.collectionName });
      return memory.createStorageInstance(anyParams) as unknown as RxStorageInstance<Doc, Internals, Options>;
    }
    return new FallbackInstance(persistent, anyParams, memory, onShortfall) as unknown as RxStorageInstance<Doc, Internals, Options>;
  };
  return wrapped;
}
