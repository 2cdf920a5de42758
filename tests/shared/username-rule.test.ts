// The username rule (shared by the username dialog and the names taken from
// tokens) refuses every character that hides or fakes text: line and paragraph separators, tag
// characters, ideographic variation selectors, the blank Braille pattern, and any other Unicode
// format character (Cf), while emoji sequences that need a joiner or tags stay allowed.
import { describe, expect, it } from 'vitest';
import { acceptableDisplayName, usernameProblem } from '../../shared/rules/username.js';

const REFUSED = 'A username cannot contain invisible, control or text-direction characters.';

describe('the username rule and invisible characters', () => {
  it.each([
    ['line separator', 'Ada\u2028Admin'],
    ['paragraph separator', 'Ada\u2029Admin'],
    ['tag characters hiding text', 'Ada\u{E0041}\u{E0064}\u{E006D}\u{E0069}\u{E006E}'],
    ['a lone cancel tag', 'Ada\u{E007F}'],
    ['tags after something other than the black flag', '🏳\u{E0067}\u{E0062}\u{E007F}'],
    ['ideographic variation selector', 'Ada\u{E0100}'],
    ['last ideographic variation selector', 'Ada\u{E01EF}'],
    ['Braille pattern blank (looks like a space)', 'Ada\u2800Lovelace'],
    ['only a Braille blank', '\u2800'],
    ['Arabic number sign (Cf)', 'Ada\u0600'],
    ['invisible times (Cf)', 'Ad\u2062a'],
    ['Egyptian hieroglyph format control (Cf)', 'Ada\u{13430}'],
    ['interlinear annotation anchor (Cf)', 'Ada\uFFF9x'],
    ['musical symbol begin beam (Cf)', 'Ada\u{1D173}'],
  ])('refuses %s', (_label, name) => {
    expect(usernameProblem(name)).toBe(REFUSED);
    expect(acceptableDisplayName(name)).toBeNull();
  });

  it.each([
    ['flag of England (a tag sequence)', 'Fan 🏴\u{E0067}\u{E0062}\u{E0065}\u{E006E}\u{E0067}\u{E007F}'],
    ['flag of Scotland', '🏴\u{E0067}\u{E0062}\u{E0073}\u{E0063}\u{E0074}\u{E007F} Ada'],
    ['family (joiners)', 'Ada 👨\u200D👩\u200D👧'],
    ['heart with emoji presentation', 'Ada ❤\uFE0F'],
    ['regional-indicator flag', 'Zoë 🇫🇷'],
    ['skin tone', 'Ada 👋🏽'],
    ['Japanese', '山田 太郎'],
    ['Arabic', 'عائشة'],
    ['Devanagari with combining marks', 'अनुष्का'],
  ])('allows %s', (_label, name) => {
    expect(usernameProblem(name)).toBeNull();
    expect(acceptableDisplayName(name)).toBe(name);
  });
});
