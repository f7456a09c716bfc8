import { toast } from '@/components/ui/use-toast';
import { getErrorMessage } from '@/lib/api-client';

/** notifyError shows a destructive toast with the server's message, or the fallback. */
export function notifyError(title: string, error: unknown, fallback: string): void {
  toast({ variant: 'destructive', title, description: getErrorMessage(error, fallback) });
}

/** notifySuccess shows a success toast. */
export function notifySuccess(title: string, description?: string): void {
  toast({ title, description });
}
