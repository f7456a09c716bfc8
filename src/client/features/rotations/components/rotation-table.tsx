import type { Rotation } from '@shared/contracts/rotations';
import { ChevronRight } from 'lucide-react';
import { Link, useNavigate } from 'react-router';
import { Button } from '@/components/ui/button';
import {
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableHeader,
  TableRow,
} from '@/components/ui/table';
import { PersonAvatar } from './person-avatar';
import { RotationStatusBadge } from './status-badges';

function PersonCell({ name, empty }: { name: string | undefined; empty: string }) {
  if (!name) return <span className="text-muted-foreground">{empty}</span>;
  return (
    <span className="flex items-center gap-2">
      <PersonAvatar name={name} className="size-6 text-[10px]" />
      <span className="truncate">{name}</span>
    </span>
  );
}

/**
 * RotationTable lists rotations: name, current and next on-call, status and a 'Manage' link.
 * Clicking a row opens the rotation too.
 */
export function RotationTable({ rotations }: { rotations: readonly Rotation[] }) {
  const navigate = useNavigate();
  return (
    <Table>
      <TableHeader>
        <TableRow className="hover:bg-transparent">
          <TableHead>Rotation Name</TableHead>
          <TableHead className="hidden sm:table-cell">Current On-Call</TableHead>
          <TableHead className="hidden md:table-cell">Next On-Call</TableHead>
          <TableHead>Status</TableHead>
          <TableHead className="text-right">Actions</TableHead>
        </TableRow>
      </TableHeader>
      <TableBody>
        {rotations.map((rotation) => (
          <TableRow
            key={rotation.id}
            className="cursor-pointer"
            onClick={() => navigate(`/rotations/${rotation.id}`)}
          >
            <TableCell className="max-w-56">
              <span className="block truncate font-medium">{rotation.name}</span>
              <span className="block truncate text-muted-foreground text-xs sm:hidden">
                {rotation.currentOnCall
                  ? `On call: ${rotation.currentOnCall.name}`
                  : 'Not assigned'}
              </span>
            </TableCell>
            <TableCell className="hidden max-w-48 sm:table-cell">
              <PersonCell name={rotation.currentOnCall?.name} empty="Not assigned" />
            </TableCell>
            <TableCell className="hidden max-w-48 md:table-cell">
              <PersonCell name={rotation.nextOnCall?.name} empty="Not scheduled" />
            </TableCell>
            <TableCell>
              <RotationStatusBadge suspended={rotation.suspended} />
            </TableCell>
            <TableCell className="text-right">
              <Button asChild variant="ghost" size="sm" onClick={(e) => e.stopPropagation()}>
                <Link to={`/rotations/${rotation.id}`} aria-label={`Manage ${rotation.name}`}>
                  <span className="hidden sm:inline">Manage</span>
                  <ChevronRight aria-hidden="true" />
                </Link>
              </Button>
            </TableCell>
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}
