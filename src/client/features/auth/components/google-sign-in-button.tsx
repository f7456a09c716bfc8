import { Button } from '@/components/ui/button';
import { useGoogleSignIn } from '../api/google-sign-in';

function GoogleIcon() {
  return (
    <svg viewBox="0 0 24 24" aria-hidden="true" className="size-4">
      <path
        fill="#4285F4"
        d="M22.56 12.25c0-.78-.07-1.53-.2-2.25H12v4.26h5.92a5.06 5.06 0 0 1-2.2 3.32v2.77h3.57c2.08-1.92 3.27-4.74 3.27-8.1z"
      />
      <path
        fill="#34A853"
        d="M12 23c2.97 0 5.46-.98 7.28-2.66l-3.57-2.77c-.98.66-2.23 1.06-3.71 1.06-2.86 0-5.29-1.93-6.16-4.53H2.18v2.84A11 11 0 0 0 12 23z"
      />
      <path
        fill="#FBBC05"
        d="M5.84 14.09a6.6 6.6 0 0 1 0-4.18V7.07H2.18a11 11 0 0 0 0 9.86l3.66-2.84z"
      />
      <path
        fill="#EA4335"
        d="M12 5.38c1.62 0 3.06.56 4.21 1.64l3.15-3.15C17.45 2.09 14.97 1 12 1A11 11 0 0 0 2.18 7.07l3.66 2.84c.87-2.6 3.3-4.53 6.16-4.53z"
      />
    </svg>
  );
}

/**
 * GoogleSignInButton starts Google sign-in; it reads 'Signing in...' while that runs.
 * `describedBy` names the element that says why it is disabled, for its accessible description.
 */
export function GoogleSignInButton({
  disabled = false,
  describedBy,
}: {
  disabled?: boolean;
  describedBy?: string;
}) {
  const googleSignIn = useGoogleSignIn();
  const pending = googleSignIn.isPending;

  return (
    <Button
      type="button"
      variant="outline"
      size="lg"
      className="w-full"
      disabled={disabled}
      aria-describedby={describedBy}
      pending={pending}
      onClick={() => googleSignIn.mutate()}
    >
      {pending ? null : <GoogleIcon />}
      {pending ? 'Signing in...' : 'Sign in with Google'}
    </Button>
  );
}
