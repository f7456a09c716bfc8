import type { Person } from '@shared/contracts/rotations';
import { Label } from '@/components/ui/label';
import {
  Select,
  SelectContent,
  SelectItem,
  SelectTrigger,
  SelectValue,
} from '@/components/ui/select';

/** PersonSelect is a labelled select of people by name, with its error message under it. */
export function PersonSelect({
  id,
  label,
  people,
  value,
  onChange,
  disabled,
  error,
  placeholder = 'Select team member',
  emptyText,
}: {
  id: string;
  label: string;
  people: readonly Person[];
  value: string;
  onChange: (value: string) => void;
  disabled?: boolean;
  error?: string | null;
  placeholder?: string;
  /** shown under the select when there is nobody to choose */
  emptyText?: string;
}) {
  const errorId = `${id}-error`;
  return (
    <div className="grid gap-2">
      <Label htmlFor={id} className={error ? 'text-destructive' : undefined}>
        {label}
      </Label>
      <Select value={value} onValueChange={onChange} disabled={disabled}>
        <SelectTrigger
          id={id}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? errorId : undefined}
        >
          <SelectValue placeholder={placeholder} />
        </SelectTrigger>
        <SelectContent>
          {people.map((p) => (
            <SelectItem key={p.id} value={String(p.id)}>
              {p.name}
            </SelectItem>
          ))}
        </SelectContent>
      </Select>
      {people.length === 0 && emptyText ? (
        <p className="text-muted-foreground text-sm">{emptyText}</p>
      ) : null}
      {error ? (
        <p id={errorId} className="text-destructive text-sm">
          {error}
        </p>
      ) : null}
    </div>
  );
}
