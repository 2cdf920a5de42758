// A user's stored push settings (users.push_settings, JSON): read leniently, so a row written by
// an older server or by hand never stops a push decision or a profile pull.
import { DEFAULT_PUSH_SETTINGS, normalizePushSettings, type PushSettings } from '../../../shared/push.js';

export function storedPushSettings(json: string | null | undefined): PushSettings {
  if (!json) return DEFAULT_PUSH_SETTINGS;
  try {
    return normalizePushSettings(JSON.parse(json));
  } catch {
    return DEFAULT_PUSH_SETTINGS;
  }
}
