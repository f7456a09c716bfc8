import type {
  AuditIntegrity,
  ClientCheck,
  DirectRotations,
  ProductionFiltering,
  RotationsCompare,
} from '@shared/contracts/debug';
import { useMutation } from '@tanstack/react-query';
import { ApiRequestError, apiRequest } from '@/lib/api-client';

/** The JSON views the Rotation Tools open in a new tab. */
export const DEBUG_JSON_VIEWS = [
  { label: 'Direct Rotations Query', href: '/api/debug/rotations' },
  { label: 'Database Diagnostics', href: '/api/debug/database' },
  { label: 'Production Filtering Check', href: '/api/debug/production-filtering' },
] as const;

function statusOf(error: unknown): { status: number | string; text: string } {
  if (error instanceof ApiRequestError) {
    const text = error.body?.message ?? error.message.replace(/^\d+: /, '');
    return { status: error.status, text };
  }
  return { status: 'network', text: error instanceof Error ? error.message : String(error) };
}

/** fetchRotationsCompare reads the direct-versus-storage comparison; fails 'Failed to fetch diagnostics: {status} {text}'. */
async function fetchRotationsCompare(): Promise<RotationsCompare> {
  try {
    // The timestamp parameter keeps any cache out of the way (specification section 7).
    return await apiRequest<RotationsCompare>(
      'GET',
      `/api/debug/rotations-compare?timestamp=${Date.now()}`,
    );
  } catch (error) {
    const { status, text } = statusOf(error);
    throw new Error(`Failed to fetch diagnostics: ${status} ${text}`);
  }
}

/** fetchProductionFiltering reads the environment filtering check; fails 'API error: {status}'. */
async function fetchProductionFiltering(): Promise<ProductionFiltering> {
  try {
    return await apiRequest<ProductionFiltering>('GET', '/api/debug/production-filtering');
  } catch (error) {
    throw new Error(`API error: ${statusOf(error).status}`);
  }
}

/** fetchDirectRotations reads the plain-SQL rotations; fails 'Direct rotations API error: {status}'. */
async function fetchDirectRotations(): Promise<DirectRotations> {
  try {
    return await apiRequest<DirectRotations>('GET', '/api/debug/rotations');
  } catch (error) {
    throw new Error(`Direct rotations API error: ${statusOf(error).status}`);
  }
}

/** fetchClientCheck reads the client data handling check. */
async function fetchClientCheck(): Promise<ClientCheck> {
  try {
    return await apiRequest<ClientCheck>('GET', `/api/debug/client-check?timestamp=${Date.now()}`);
  } catch (error) {
    const { status, text } = statusOf(error);
    throw new Error(`API error: ${status} ${text}`);
  }
}

/** fetchAuditIntegrity verifies the audit trail's hash chain; fails 'Audit integrity check failed: {status} {text}'. */
async function fetchAuditIntegrity(): Promise<AuditIntegrity> {
  try {
    return await apiRequest<AuditIntegrity>('GET', '/api/debug/audit-integrity');
  } catch (error) {
    const { status, text } = statusOf(error);
    throw new Error(`Audit integrity check failed: ${status} ${text}`);
  }
}

/** useAuditIntegrity runs the audit integrity check on demand. */
export function useAuditIntegrity() {
  return useMutation({ mutationFn: fetchAuditIntegrity });
}

/** useRotationsCompare runs the rotation diagnostic on demand. */
export function useRotationsCompare() {
  return useMutation({ mutationFn: fetchRotationsCompare });
}

/** useEnvironmentCheck runs the filtering check and the direct query side by side, on demand. */
export function useEnvironmentCheck() {
  return useMutation({
    mutationFn: async () => {
      const [filtering, direct] = await Promise.all([
        fetchProductionFiltering(),
        fetchDirectRotations(),
      ]);
      return { filtering, direct };
    },
  });
}

/** useClientCheck runs the client data handling check on demand. */
export function useClientCheck() {
  return useMutation({ mutationFn: fetchClientCheck });
}
