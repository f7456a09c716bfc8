import { QueryClientProvider } from '@tanstack/react-query';
import type * as React from 'react';
import { lazy, Suspense } from 'react';
import { syncRequestIdentity } from '@/features/auth/lib/request-identity';
import { queryClient } from '@/lib/query-client';

syncRequestIdentity(queryClient);

// The toasts' viewport (Radix toast) loads after the first paint (the first screen's budget,
// decision 237); a toast raised before it is there waits in the store and shows when it is.
const Toaster = lazy(async () => ({ default: (await import('@/components/ui/toaster')).Toaster }));

/** AppProviders holds what every screen shares: the query cache and the toasts. */
export function AppProviders({ children }: { children: React.ReactNode }) {
  return (
    <QueryClientProvider client={queryClient}>
      {children}
      <Suspense fallback={null}>
        <Toaster />
      </Suspense>
    </QueryClientProvider>
  );
}
