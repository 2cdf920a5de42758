// Ids are opaque strings; the app makes UUIDv7 ones so that items created
// offline keep their id and a retried create is idempotent.
import { v7 } from 'uuid';

export const newId = (): string => v7();
