import { ApiRequestError } from '@/lib/api-client';
import { notifyFailure, notifySuccess } from '@/lib/notify';

const SETTINGS_SAVED_TITLE = 'Settings saved';
const SAVE_FAILED_TITLE = 'Error saving settings';
const SAVE_FAILED_TEXT = 'There was a problem saving your settings. Please try again.';
const NOT_SIGNED_IN_TEXT = 'You must be logged in to save settings.';

/** notifySettingsSaved shows the 'Settings saved' toast. */
export function notifySettingsSaved(description: string): void {
  notifySuccess(SETTINGS_SAVED_TITLE, description);
}

/** notifyNotSignedIn shows the 'Error' toast for a save without a signed-in user. */
export function notifyNotSignedIn(): void {
  notifyFailure('Error', NOT_SIGNED_IN_TEXT);
}

/**
 * notifySettingsError shows the section 8 toast for a failed save: 'Error' when the session is
 * gone (401), otherwise 'Error saving settings' with the server's reason for a refused value,
 * or the standard text.
 */
export function notifySettingsError(error: unknown): void {
  if (error instanceof ApiRequestError && error.status === 401) {
    notifyNotSignedIn();
    return;
  }
  const refused =
    error instanceof ApiRequestError && (error.status === 400 || error.status === 409);
  notifyFailure(
    SAVE_FAILED_TITLE,
    refused && error.body?.message ? error.body.message : SAVE_FAILED_TEXT,
  );
}
