// Request schema for deleting one's own account (DELETE /api/me).
import { z } from 'zod';
import { MSG } from '../messages.js';

/** What happens to the account's topics and responses: erased, or kept under "deleted user". */
export const ACCOUNT_CONTENT_CHOICES = ['delete', 'anonymise'] as const;
export type AccountContentChoice = (typeof ACCOUNT_CONTENT_CHOICES)[number];

export const deleteAccountSchema = z.strictObject({
  content: z.enum(ACCOUNT_CONTENT_CHOICES, { error: MSG.deleteAccountContentChoice }),
});
export type DeleteAccountInput = z.infer<typeof deleteAccountSchema>;
