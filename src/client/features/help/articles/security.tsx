import { Link } from 'react-router';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs';
import { Callout } from '../components/prose';

/** Where security problems in Baton itself are reported privately. */
const SECURITY_ADVISORY_URL = 'https://github.com/baton-oncall/baton/security/advisories/new';

export function SecurityDisclosuresArticle() {
  return (
    <>
      <p>How Baton protects sign-in, sessions and personal data, and what it does not protect.</p>
      <Tabs defaultValue="overview" className="mt-6">
        <TabsList className="h-auto max-w-full flex-wrap justify-start">
          <TabsTrigger className="h-8 flex-none" value="overview">
            Overview
          </TabsTrigger>
          <TabsTrigger className="h-8 flex-none" value="authentication">
            Authentication
          </TabsTrigger>
          <TabsTrigger className="h-8 flex-none" value="data">
            Data Security
          </TabsTrigger>
          <TabsTrigger className="h-8 flex-none" value="considerations">
            Considerations
          </TabsTrigger>
        </TabsList>
        <TabsContent value="overview" className="space-y-4 pt-4">
          <h2>Overview</h2>
          <ul>
            <li>Access is by invitation only, with your company Google account.</li>
            <li>
              Every request is authorised on the server from your session, against one permission
              table (<Link to="/help/user-roles">User Roles &amp; Permissions</Link>).
            </li>
            <li>
              Names, email addresses, phone numbers and notification contents are encrypted in the
              database (<Link to="/help/encryption">Data Encryption</Link>).
            </li>
            <li>Administrative actions are recorded in an audit trail.</li>
          </ul>
          <h2>Reporting a vulnerability</h2>
          <p>
            Please report security problems in Baton privately through a{' '}
            <a href={SECURITY_ADVISORY_URL} target="_blank" rel="noopener noreferrer">
              security advisory
              <span className="sr-only"> (opens in a new tab)</span>
            </a>
            , not in the public bug backlog. Problems with your organisation's Baton server (its
            accounts or configuration) go to your own administrators.
          </p>
        </TabsContent>
        <TabsContent value="authentication" className="space-y-4 pt-4">
          <h2>Authentication</h2>
          <ul>
            <li>
              Sign-in with Google uses OpenID Connect's authorization code flow with PKCE, a state
              and a nonce. Baton checks the ID token's signature against the provider's published
              keys, its issuer, audience, expiry and nonce, that the email address is verified, and
              that it belongs to the company domain.
            </li>
            <li>
              A verified identity with neither an account nor a pending invitation is refused.
            </li>
            <li>
              A session is a random 256-bit token in an HttpOnly, SameSite=Lax cookie (in production
              also Secure, with the __Host- prefix so no other site or subdomain can set it). The
              server keeps only its SHA-256 hash. A session ends after 14 days unused or 30 days
              after sign-in; logging out ends it at once, everywhere.
            </li>
            <li>
              Requests that change something must show they come from Baton's own pages; cross-site
              attempts, and requests that do not say where they come from, are refused. Identity
              headers a browser sends are ignored.
            </li>
            <li>
              Email and password sign-in exists only for demonstrations, development and tests, when
              a server password is configured: it is one password shared by every account, so a
              production server refuses to start with one. It is limited to 10 attempts a minute per
              address across all servers and answers “Invalid credentials” alike for an unknown
              address and a wrong password.
            </li>
          </ul>
        </TabsContent>
        <TabsContent value="data" className="space-y-4 pt-4">
          <h2>Data security</h2>
          <ul>
            <li>
              Personal fields are encrypted with AES-256-GCM, each value bound to its own row and
              column (<Link to="/help/encryption">Data Encryption</Link>).
            </li>
            <li>
              Invitation and session tokens are stored only as hashes; a stolen database copy does
              not contain usable links or sessions.
            </li>
            <li>
              Pages are served with a strict Content Security Policy, may not be framed, and, in
              production, with HTTP Strict Transport Security.
            </li>
            <li>
              Logs leave out cookies, authorization headers, invitation and acknowledgement-link
              tokens, calendar feed secrets and personal details such as email addresses.
            </li>
            <li>Unexpected server errors answer without internal details.</li>
            <li>
              The Debug Tools are for administrators only and never show secrets: the database
              appears without credentials and the encryption key only as available or not.
            </li>
          </ul>
        </TabsContent>
        <TabsContent value="considerations" className="space-y-4 pt-4">
          <h2>Considerations and limits</h2>
          <ul>
            <li>
              <strong>Not encrypted:</strong> handoff notes, page messages, rotation names and
              descriptions, roles and time zones. Do not put secrets or sensitive personal data in
              notes or page messages.
            </li>
            <li>
              <strong>Visible to the team:</strong> every signed-in person sees teammates' names,
              email addresses, time zones and notification preferences on the On-Call Team page, and
              the people in each rotation.
            </li>
            <li>
              <strong>HTTPS:</strong> Baton expects to sit behind an HTTPS proxy or load balancer
              using TLS 1.2 or newer; it does not terminate TLS itself.
            </li>
            <li>
              <strong>The encryption key:</strong> whoever holds the key and the database can read
              the personal fields. Keep the key out of database backups, and back it up separately:
              without it the encrypted fields cannot be recovered.
            </li>
            <li>
              <strong>Email and SMS</strong> leave Baton in the clear as far as your mail and SMS
              providers; they include names and page messages.
            </li>
          </ul>
        </TabsContent>
      </Tabs>
    </>
  );
}

export function EncryptionArticle() {
  return (
    <>
      <h2>What is encrypted</h2>
      <p>Baton encrypts these fields before they reach the database:</p>
      <ul>
        <li>users' name, email address and phone number;</li>
        <li>invitations' name and email address;</li>
        <li>notifications' content (recipient, subject and text);</li>
        <li>
          the name of a deleted user or invitation, which the administrators' audit trail keeps to
          show whom the deletion removed.
        </li>
      </ul>
      <h2>How</h2>
      <ul>
        <li>
          <strong>AES-256-GCM</strong>, field by field, with a fresh random 96-bit nonce for every
          value and a full 128-bit authentication tag.
        </li>
        <li>
          Each value is bound to its table, column and row: a value copied to another row or column
          fails to decrypt instead of showing the wrong person's data.
        </li>
        <li>
          The keys come from one 32-byte secret (<code>ENCRYPTION_KEY</code>) through HKDF-SHA256:
          one key encrypts, another builds the lookup index.
        </li>
        <li>
          To find a user by email without storing the address in clear, Baton keeps an HMAC-SHA256
          of the normalised address (a blind index).
        </li>
        <li>
          Features that search names, such as the Audit Log, decrypt names in the server's memory
          for the search; names are never stored in clear to make searching easier.
        </li>
      </ul>
      <h2>In transit</h2>
      <p>
        Serve Baton over HTTPS with TLS 1.2 or newer. In production, Baton marks its cookies Secure
        and tells browsers to use HTTPS only (HSTS).
      </p>
      <h2>Key rotation</h2>
      <p>
        An administrator of the server sets the new key as <code>ENCRYPTION_KEY</code> and the old
        one in <code>ENCRYPTION_KEYS_PREVIOUS</code>, restarts Baton and runs{' '}
        <code>npm run keys:rotate</code>, which re-encrypts every value in batches. Both keys stay
        readable until it finishes, so sign-in keeps working throughout.
      </p>
      <Callout title="What is not encrypted">
        <p>
          Handoff notes, page messages and rotation names are stored in clear; see{' '}
          <Link to="/help/security-disclosures">Security Disclosures</Link>.
        </p>
      </Callout>
    </>
  );
}
