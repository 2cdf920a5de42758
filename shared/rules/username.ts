// The username rule: which display names are refused and why. Free of zod so the app's first
// screen (the sign-in and username forms) can check a name without building the request schemas.
import { LIMITS } from '../constants.js';
import { MSG } from '../messages.js';

// Characters a name may not hide: control characters and line or paragraph separators;
// bidirectional embeddings, overrides, isolates and marks (they reorder the text around
// them: "‮txt.exe"); invisible or zero-width ones (look-alike names, blank names),
// including every Unicode format character (category Cf: tag characters, invisible
// operators, Arabic and Egyptian format signs, and those Unicode adds later) and the
// ideographic variation selectors (U+E0100–E01EF). A zero-width joiner is allowed only
// inside an emoji sequence (👩‍💻), and tag characters only in an emoji tag sequence
// (the flags of England, Scotland and Wales: 🏴 + tags + cancel tag).
const CONTROL = /[\p{Cc}\p{Zl}\p{Zp}]/u;
const BIDI = /[\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069]/u;
// (Combining ones as alternatives: inside a character class they would attach to their neighbour.)
const INVISIBLE =
  /[\u00AD\u115F\u1160\u180E\u200B\u200C\u2060-\u2064\u2800\u3164\uFEFF\uFFA0]|\u034F|\u17B4|\u17B5|\u180B|\u180C|\u180D|\u180F|[\u{E0100}-\u{E01EF}]/u;
const ZWJ = '\u200D';
/** Format characters other than the joiner (checked on its own below). */
const FORMAT = /(?!\u200D)\p{Cf}/u;
const EMOJI_TAG_SEQUENCE = /\u{1F3F4}[\u{E0020}-\u{E007E}]+\u{E007F}/gu;
const EMOJI_BEFORE_ZWJ = /[\p{Extended_Pictographic}\p{Emoji_Modifier}\uFE0F]$/u;
const EMOJI_AFTER_ZWJ = /^\p{Extended_Pictographic}/u;

/** Why a display name is not acceptable (the username rules), or null when it is. Expects trimmed text. */
export function usernameProblem(name: string): string | null {
  if (name.length === 0) return MSG.usernameEmpty;
  if (name.length > LIMITS.displayName) return `A username has at most ${LIMITS.displayName} characters.`;
  if (CONTROL.test(name) || BIDI.test(name) || INVISIBLE.test(name) || FORMAT.test(name.replace(EMOJI_TAG_SEQUENCE, ''))) {
    return 'A username cannot contain invisible, control or text-direction characters.';
  }
  for (let i = name.indexOf(ZWJ); i !== -1; i = name.indexOf(ZWJ, i + 1)) {
    if (!EMOJI_BEFORE_ZWJ.test(name.slice(0, i)) || !EMOJI_AFTER_ZWJ.test(name.slice(i + 1))) {
      return 'A username cannot contain invisible, control or text-direction characters.';
    }
  }
  return null;
}

/** The display name a verified token carries, when it passes the username rules; otherwise null (shown as "Anonymous"). */
export function acceptableDisplayName(name: unknown): string | null {
  if (typeof name !== 'string') return null;
  const trimmed = name.trim();
  if (trimmed === '') return null;
  return usernameProblem(trimmed) === null ? trimmed : null;
}
