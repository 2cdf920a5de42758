// The orders lists are shown in, described once: the server turns a description
// into SQL `ORDER BY` (sync-server/src/store), the app into a comparator for the
// same list read from the device. Ids compare by code unit, as SQLite's BINARY
// collation does (localeCompare would put "a" before "B"; SQLite puts it after).
import type { Sort } from '../constants.js';

export type Direction = 'asc' | 'desc';
export type OrderKey<F extends string> = readonly [field: F, direction: Direction];
export type Order<F extends string> = readonly OrderKey<F>[];

/** Topic lists: Hot, New, Top; every order ends on the id so pages never overlap. */
export const TOPIC_ORDERS = {
  hot: [
    ['hot', 'desc'],
    ['id', 'asc'],
  ],
  new: [
    ['created_at', 'desc'],
    ['id', 'desc'],
  ],
  top: [
    ['score', 'desc'],
    ['created_at', 'desc'],
    ['id', 'desc'],
  ],
} as const satisfies Record<Sort, Order<'hot' | 'created_at' | 'score' | 'id'>>;

/** A topic's responses and a response's replies: oldest first. */
export const RESPONSE_ORDER = [
  ['created_at', 'asc'],
  ['id', 'asc'],
] as const satisfies Order<'created_at' | 'id'>;

/** Notifications: newest first. */
export const NOTIFICATION_ORDER = [
  ['created_at', 'desc'],
  ['id', 'desc'],
] as const satisfies Order<'created_at' | 'id'>;

/** `ORDER BY` text for an order, each field prefixed with the table alias. */
export function orderBySql<F extends string>(order: Order<F>, alias: string): string {
  return order.map(([field, direction]) => `${alias}.${field} ${direction.toUpperCase()}`).join(', ');
}

/** A comparator for rows holding the order's fields (numbers or strings). */
export function comparatorFor<F extends string>(order: Order<F>): (a: Record<F, string | number>, b: Record<F, string | number>) => number {
  return (a, b) => {
    for (const [field, direction] of order) {
      const x = a[field];
      const y = b[field];
      if (x === y) continue;
      const less = x < y ? -1 : 1;
      return direction === 'asc' ? less : -less;
    }
    return 0;
  };
}
