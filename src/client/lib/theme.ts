/** The local storage key holding dark mode, as the string 'true' or 'false'. */
const DARK_MODE_STORAGE_KEY = 'darkMode';

/** readDarkMode returns the stored dark-mode choice; off when nothing (readable) is stored. */
export function readDarkMode(): boolean {
  try {
    return window.localStorage.getItem(DARK_MODE_STORAGE_KEY) === 'true';
  } catch {
    // Storage can be blocked (privacy settings); the page then starts light.
    return false;
  }
}

/** applyDarkMode sets or removes the `dark` class on the page root. */
export function applyDarkMode(enabled: boolean): void {
  document.documentElement.classList.toggle('dark', enabled);
}

/** setDarkMode applies the choice and remembers it for the next visit. */
export function setDarkMode(enabled: boolean): void {
  applyDarkMode(enabled);
  try {
    window.localStorage.setItem(DARK_MODE_STORAGE_KEY, String(enabled));
  } catch {
    // Storage can be blocked; the choice then lasts for this page only.
  }
}
