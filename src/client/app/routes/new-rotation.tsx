import { can } from '@shared/domain/permissions';
import { Navigate } from 'react-router';
import { useAuth } from '@/lib/use-auth';
import { RotationsPage } from './rotations';

/**
 * NewRotationPage (/rotations/new) is the rotations list with 'Create New Rotation' already open;
 * those who may not create rotations are sent to the list.
 */
export function NewRotationPage() {
  const { roles } = useAuth();
  if (!can(roles, 'rotation.create')) return <Navigate to="/rotations" replace />;
  return <RotationsPage createOpen />;
}
