import { Moon, Sun } from 'lucide-react';
import { useState } from 'react';
import { Button } from '@/components/ui/button';
import { setDarkMode } from '@/lib/theme';

/** DarkModeToggle switches the page between light and dark and remembers the choice. */
export function DarkModeToggle() {
  // main.tsx applies the stored choice before the first render, so the root class is the truth.
  const [dark, setDark] = useState(() => document.documentElement.classList.contains('dark'));

  return (
    <Button
      variant="ghost"
      size="icon"
      aria-label="Toggle dark mode"
      aria-pressed={dark}
      onClick={() => {
        setDarkMode(!dark);
        setDark(!dark);
      }}
    >
      {dark ? <Sun aria-hidden="true" /> : <Moon aria-hidden="true" />}
    </Button>
  );
}
