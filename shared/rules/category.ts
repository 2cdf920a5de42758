// Narrows text from a URL or a form to one of the site's categories (no cast needed downstream).
import { CATEGORIES, type Category } from '../constants.js';

export function isCategory(value: string): value is Category {
  return (CATEGORIES as readonly string[]).includes(value);
}
