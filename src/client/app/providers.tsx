import { QueryClientProvider } from '@tanstack/react-query';
import type * as React from 'react';
import { Toaster } from '@/components/ui/toaster';
import { syncRequestIdentity } from '@/features/auth/lib/request-identity';
import { queryClient } from '@/lib/query-client';

syncRequestIdentity(queryClient);

/** AppProviders holds what every screen shares: the query cache and the toasts. */
export function AppProviders({ children }: { children: React.ReactNode }) {
  return (
    <QueryClientProvider client={queryClient}>
      {children}
      <Toaster />
    </QueryClientProvider>
  );
}
