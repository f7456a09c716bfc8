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

/**
 * NO_TRANSITIONS: a style sheet that stops every CSS transition while the mode changes. Without
 * it each element with a colour transition (buttons, links, inputs, badges: 200 to 300 on a
 * screen) fades to its new colours on its own, for 150 ms: the page changes mode in a ripple
 * instead of at once, and the browser repaints the whole page for every frame of it (next-themes
 * does the same with `disableTransitionOnChange`; decision 279).
 */
const NO_TRANSITIONS = '*,*::before,*::after{transition:none!important}';

/**
 * switchModeAtOnce applies the choice with every transition stopped: the new colours are
 * computed while the sheet is in the page (reading a computed style forces it), then the sheet
 * goes, and the next state change of an element transitions as before.
 */
function switchModeAtOnce(enabled: boolean): void {
  const sheet = document.createElement('style');
  sheet.textContent = NO_TRANSITIONS;
  document.head.appendChild(sheet);
  applyDarkMode(enabled);
  window.getComputedStyle(document.body).getPropertyValue('color');
  sheet.remove();
}

/** setDarkMode switches the page to the choice at once and remembers it for the next visit. */
export function setDarkMode(enabled: boolean): void {
  switchModeAtOnce(enabled);
  try {
    window.localStorage.setItem(DARK_MODE_STORAGE_KEY, String(enabled));
  } catch {
    // Storage can be blocked; the choice then lasts for this page only.
  }
}
