import { Check, ChevronsUpDown, Search } from 'lucide-react';
import { type KeyboardEvent, useEffect, useId, useMemo, useRef, useState } from 'react';
import { Button } from '@/components/ui/button';
import { Popover, PopoverContent, PopoverTrigger } from '@/components/ui/popover';
import { matchesZone, pinnedFirst, timeZoneChoices, utcOffsetLabel } from '@/lib/time-zones';
import { cn } from '@/lib/utils';

const PAGE = 8;

/**
 * TimeZonePicker chooses any IANA time zone: a button that opens a searchable list (the shadcn
 * combobox pattern: a Radix popover holding a search box and a listbox). The search box owns the
 * keyboard: arrows, Page Up / Page Down, Enter to choose, Escape to close. Extra props (the
 * form's id, aria-describedby, aria-invalid) go to the button, which the form label names.
 * `pinned` zones head the list, in their order, above a rule (the profile's nine).
 */
export function TimeZonePicker({
  value,
  onChange,
  disabled,
  pinned = [],
  className,
  ...triggerProps
}: {
  value: string | undefined;
  onChange: (zone: string) => void;
  disabled?: boolean;
  pinned?: readonly string[];
  className?: string;
  id?: string;
  'aria-describedby'?: string;
  'aria-invalid'?: boolean;
}) {
  const [open, setOpen] = useState(false);
  const [query, setQuery] = useState('');
  const [active, setActive] = useState(0);
  const baseId = useId();
  const listId = `${baseId}-list`;
  const listRef = useRef<HTMLDivElement>(null);

  // Offsets are read when the list opens: they change with daylight saving time.
  const choices = useMemo(() => {
    if (!open) return [];
    const now = new Date();
    return pinnedFirst(timeZoneChoices([value]), pinned).map((zone) => ({
      zone,
      offset: utcOffsetLabel(zone, now),
      pinned: pinned.includes(zone),
    }));
  }, [open, value, pinned]);
  const shown = useMemo(
    () => choices.filter((c) => matchesZone(query, c.zone, c.offset)),
    [choices, query],
  );
  const optionId = (index: number) => `${baseId}-option-${index}`;

  const openChange = (next: boolean) => {
    setOpen(next);
    setQuery('');
  };

  // Only a keyboard move, opening or searching scrolls the list to the active option: scrolling on
  // hover would move the list under a still pointer, which hovers the next option, and so on.
  const scrollTarget = useRef<number | null>(null);

  // On opening, the chosen zone is active and in view; on searching, the first match.
  useEffect(() => {
    if (!open) return;
    const at = query
      ? 0
      : Math.max(
          0,
          shown.findIndex((c) => c.zone === value),
        );
    scrollTarget.current = at;
    setActive(at);
  }, [open, query, shown, value]);

  useEffect(() => {
    if (!open || scrollTarget.current !== active) return;
    scrollTarget.current = null;
    const option = listRef.current?.querySelector<HTMLElement>(`#${CSS.escape(optionId(active))}`);
    option?.scrollIntoView({ block: 'nearest' });
  });

  const choose = (zone: string) => {
    onChange(zone);
    openChange(false);
  };

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    const last = shown.length - 1;
    const move = (to: number) => {
      event.preventDefault();
      const next = Math.min(Math.max(to, 0), Math.max(last, 0));
      scrollTarget.current = next;
      setActive(next);
    };
    switch (event.key) {
      case 'ArrowDown':
        return move(active + 1);
      case 'ArrowUp':
        return move(active - 1);
      case 'PageDown':
        return move(active + PAGE);
      case 'PageUp':
        return move(active - PAGE);
      case 'Enter': {
        event.preventDefault();
        const pick = shown[active];
        if (pick) choose(pick.zone);
        return;
      }
      default:
        return;
    }
  };

  return (
    <Popover open={open} onOpenChange={openChange} modal>
      <PopoverTrigger asChild>
        <Button
          type="button"
          variant="outline"
          role="combobox"
          aria-expanded={open}
          aria-haspopup="listbox"
          aria-controls={open ? listId : undefined}
          disabled={disabled}
          className={cn(
            'w-full justify-between px-3 font-normal dark:bg-input/30',
            !value && 'text-muted-foreground',
            className,
          )}
          {...triggerProps}
        >
          <span className="truncate">{value || 'Select a time zone'}</span>
          <ChevronsUpDown className="opacity-50" aria-hidden="true" />
        </Button>
      </PopoverTrigger>
      <PopoverContent align="start" className="w-(--radix-popover-trigger-width) min-w-64 p-0">
        <div className="flex items-center gap-2 border-b px-3">
          <Search className="size-4 shrink-0 text-muted-foreground" aria-hidden="true" />
          <input
            role="combobox"
            aria-label="Search time zones"
            aria-expanded="true"
            aria-controls={listId}
            aria-autocomplete="list"
            aria-activedescendant={shown.length > 0 ? optionId(active) : undefined}
            placeholder="Search time zones…"
            autoComplete="off"
            spellCheck={false}
            value={query}
            onChange={(e) => setQuery(e.target.value)}
            onKeyDown={onKeyDown}
            className="h-10 w-full bg-transparent text-sm outline-none placeholder:text-muted-foreground"
          />
        </div>
        <div
          ref={listRef}
          id={listId}
          role="listbox"
          aria-label="Time zones"
          className="max-h-64 overflow-y-auto p-1"
        >
          {shown.length === 0 ? (
            <p className="px-2 py-6 text-center text-muted-foreground text-sm">
              No time zone found.
            </p>
          ) : (
            shown.map((c, index) => (
              // biome-ignore lint/a11y/useKeyWithClickEvents: the search box owns the keyboard (aria-activedescendant); options never take focus
              <div
                key={c.zone}
                id={optionId(index)}
                role="option"
                aria-selected={c.zone === value}
                tabIndex={-1}
                data-active={index === active || undefined}
                data-last-pinned={
                  (c.pinned && shown[index + 1] && !shown[index + 1].pinned) || undefined
                }
                onMouseMove={() => (index === active ? undefined : setActive(index))}
                onMouseDown={(e) => e.preventDefault()}
                onClick={() => choose(c.zone)}
                className="relative flex cursor-default select-none items-center gap-2 rounded-sm px-2 py-1.5 text-sm outline-none data-[active]:bg-accent data-[active]:text-accent-foreground data-[last-pinned]:mb-1 data-[last-pinned]:after:absolute data-[last-pinned]:after:inset-x-0 data-[last-pinned]:after:-bottom-0.5 data-[last-pinned]:after:h-px data-[last-pinned]:after:bg-border"
              >
                <Check
                  className={cn('size-4 shrink-0', c.zone === value ? 'opacity-100' : 'opacity-0')}
                  aria-hidden="true"
                />
                <span className="min-w-0 flex-1 truncate">{c.zone}</span>
                <span className="shrink-0 text-muted-foreground text-xs tabular-nums">
                  {c.offset}
                </span>
              </div>
            ))
          )}
        </div>
      </PopoverContent>
    </Popover>
  );
}
