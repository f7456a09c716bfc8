import { Navigate, Outlet } from 'react-router';
import { LoadingState } from '@/components/loading-state';
import { useAuth } from '@/lib/use-auth';

/** RequireAuth shows its child routes to a signed-in user and sends anyone else to /login. */
export function RequireAuth() {
  const { user, isLoading } = useAuth();
  if (isLoading) return <LoadingState />;
  if (!user) return <Navigate to="/login" replace />;
  return <Outlet />;
}

/** RequireAdmin shows its child routes to an admin; others go to / (or /login if signed out). */
export function RequireAdmin() {
  const { user, isLoading, isAdmin } = useAuth();
  if (isLoading) return <LoadingState />;
  if (!user) return <Navigate to="/login" replace />;
  if (!isAdmin) return <Navigate to="/" replace />;
  return <Outlet />;
}

/** GuestOnly shows its child routes (sign-in, invitations) only to a signed-out visitor. */
export function GuestOnly() {
  const { user, isLoading } = useAuth();
  if (isLoading) return <LoadingState fullScreen />;
  if (user) return <Navigate to="/" replace />;
  return <Outlet />;
}
