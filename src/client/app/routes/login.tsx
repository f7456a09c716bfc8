import { LOCAL_SIGN_IN_NOTE } from '@shared/contracts/auth';
import { CircleAlert, Info } from 'lucide-react';
import { useId } from 'react';
import { useParams } from 'react-router';
import { BatonMark } from '@/components/baton-logo';
import { DarkModeToggle } from '@/components/dark-mode-toggle';
import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert';
import {
  Card,
  CardContent,
  CardDescription,
  CardFooter,
  CardHeader,
  CardTitle,
} from '@/components/ui/card';
import { Spinner } from '@/components/ui/spinner';
import { useAuthOptions } from '@/features/auth/api/get-auth-options';
import { GoogleSignInButton } from '@/features/auth/components/google-sign-in-button';
import { LoginForm } from '@/features/auth/components/login-form';
import {
  type InvitationValidation,
  useInvitationValidation,
} from '@/features/invitations/api/validate-invitation';
import { InvitationStatus } from '@/features/invitations/components/invitation-status';
import { APP_NAME } from '@/lib/constants';

/** LoginPage is the sign-in screen at /login and the sign-up screen at /invite/{token}. */
export function LoginPage() {
  const { token } = useParams();
  return token ? <InviteSignIn token={token} /> : <SignInCard invitation={null} />;
}

function InviteSignIn({ token }: { token: string }) {
  const validation = useInvitationValidation(token);
  return <SignInCard invitation={validation} />;
}

function SignInCard({ invitation }: { invitation: InvitationValidation | null }) {
  const options = useAuthOptions();
  const invitationValid = invitation?.state === 'valid';
  const invitationBlocks = invitation !== null && !invitationValid;
  const google = options.data?.google ?? false;
  const notConfiguredId = useId();

  return (
    <div className="relative flex min-h-dvh flex-col items-center justify-center bg-muted/40 px-4 py-10">
      <div className="absolute top-3 right-3">
        <DarkModeToggle />
      </div>
      <main className="w-full max-w-md">
        <Card>
          <CardHeader className="justify-items-center text-center">
            <BatonMark className="mb-2 size-10" />
            <CardTitle asChild className="text-2xl">
              <h1>{invitationValid ? 'Complete Your Registration' : 'Welcome'}</h1>
            </CardTitle>
            <CardDescription>Sign in with your company Google account to continue.</CardDescription>
          </CardHeader>

          <CardContent className="grid gap-4">
            {invitation ? (
              <InvitationStatus validation={invitation} />
            ) : (
              <Alert>
                <Info aria-hidden="true" />
                <AlertTitle>Invitation only</AlertTitle>
                <AlertDescription>
                  New to {APP_NAME}? Open the invitation link an administrator sent you to sign up.
                </AlertDescription>
              </Alert>
            )}

            {options.isPending ? (
              <div role="status" className="flex justify-center py-2 text-muted-foreground">
                <Spinner className="size-5" />
                <span className="sr-only">Loading sign-in options...</span>
              </div>
            ) : options.isError ? (
              <Alert variant="destructive">
                <CircleAlert aria-hidden="true" />
                <AlertTitle>Sign-in is unavailable</AlertTitle>
                <AlertDescription>
                  Unable to load the sign-in options. Please refresh the page.
                </AlertDescription>
              </Alert>
            ) : (
              <>
                <div className="grid gap-2">
                  <GoogleSignInButton
                    disabled={!google || invitationBlocks}
                    describedBy={google ? undefined : notConfiguredId}
                  />
                  {google ? null : (
                    <p id={notConfiguredId} className="text-center text-muted-foreground text-xs">
                      Sign-in with Google is not configured on this server.
                    </p>
                  )}
                </div>
                {options.data.localLogin ? (
                  <>
                    <div className="flex items-center gap-3 text-muted-foreground text-xs uppercase">
                      <span className="h-px flex-1 bg-border" />
                      or
                      <span className="h-px flex-1 bg-border" />
                    </div>
                    <LoginForm />
                    <p className="text-center text-muted-foreground text-xs">
                      {LOCAL_SIGN_IN_NOTE}
                    </p>
                  </>
                ) : null}
              </>
            )}
          </CardContent>

          <CardFooter className="justify-center">
            <p className="text-center text-muted-foreground text-xs">
              You need an invitation to access {APP_NAME}.
            </p>
          </CardFooter>
        </Card>
      </main>
    </div>
  );
}
