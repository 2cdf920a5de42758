// The moderation limits' environment (config.ts readModerationLimits): the defaults
// of MODERATION_DEFAULTS, each variable, 0 where it makes sense, nonsense ignored, and the switch off.
import { describe, expect, it } from 'vitest';
import { MODERATION_DEFAULTS } from '../../shared/constants.js';
import { readConfig, readModerationLimits } from '../../sync-server/src/config.js';

describe('moderation limits from the environment', () => {
  it('defaults to MODERATION_DEFAULTS, on', () => {
    expect(readModerationLimits({})).toEqual({ enabled: true, ...MODERATION_DEFAULTS });
    expect(readConfig({}).moderation).toEqual({ enabled: true, ...MODERATION_DEFAULTS });
  });

  it('reads every variable; 0 is a value, nonsense and negatives keep the default', () => {
    expect(
      readModerationLimits({
        AUTO_HIDE_REPORTS: '5',
        NEW_USER_TOPICS_PER_DAY: '1',
        NEW_USER_LINKS: '0',
        NEW_ACCOUNT_HOURS: '0.5',
        SPAM_REPEATS: ' 2 ',
        SPAM_WINDOW_MINUTES: '30',
      }),
    ).toEqual({
      enabled: true,
      autoHideReports: 5,
      newUserTopicsPerDay: 1,
      newUserLinks: 0,
      newAccountHours: 0.5,
      spamRepeats: 2,
      spamWindowMinutes: 30,
    });
    expect(readModerationLimits({ NEW_USER_LINKS: 'lots', SPAM_REPEATS: '-1', NEW_USER_TOPICS_PER_DAY: '' })).toEqual({
      enabled: true,
      ...MODERATION_DEFAULTS,
    });
    expect(readModerationLimits({ NEW_USER_TOPICS_PER_DAY: '2.7' }).newUserTopicsPerDay).toBe(2);
  });

  it('MODERATION_LIMITS=off (or false, 0) turns them off', () => {
    for (const off of ['off', 'OFF', 'false', '0']) expect(readModerationLimits({ MODERATION_LIMITS: off }).enabled).toBe(false);
    expect(readModerationLimits({ MODERATION_LIMITS: 'on' }).enabled).toBe(true);
  });
});
