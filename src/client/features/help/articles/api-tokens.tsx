import { Link } from 'react-router';
import { Callout, CodeBlock, Steps } from '../components/prose';

/*
 * Personal API tokens (issue 20, decision 223): making one in the profile, using it from a script,
 * what its scope allows, its limits, and revoking it.
 */

export function ApiTokensArticle() {
  return (
    <>
      <p>
        A personal API token lets a script or a tool call Baton's API as you: list rotations, read
        who is on call, or, with the write scope, pass the baton or acknowledge a page. It has
        exactly your permissions (see{' '}
        <Link to="/help/user-roles">User Roles &amp; Permissions</Link>
        ), narrowed by its scope.
      </p>
      <h2>Creating a token</h2>
      <Steps
        steps={[
          ['Open your profile', 'Avatar menu → Profile, then the API tokens card.'],
          [
            'Create token',
            'Give it a name you will recognise, a scope (Read, or Read and write) and how many days it lasts: 90 unless you choose otherwise, at most 365.',
          ],
          [
            'Copy it now',
            'The token (it begins with baton_) is shown once. Baton keeps only a hash of it: lost, it cannot be shown again; revoke it and create another.',
          ],
        ]}
      />
      <h2>Using it</h2>
      <p>
        Every call, its parameters and its answers are in the{' '}
        <a href="/api/docs/" target="_blank" rel="noopener noreferrer">
          API reference
        </a>
        , linked from the API tokens card too. Send the token in the Authorization header of every
        request:
      </p>
      <CodeBlock>
        {'curl -H "Authorization: Bearer baton_…" https://baton.example.com/api/rotations'}
      </CodeBlock>
      <ul>
        <li>
          A request with a token needs no cookie and no Origin header. A read token is refused (403)
          every change, and the answer says it is the token's scope.
        </li>
        <li>
          Tokens are managed only from the signed-in profile: a request made with a token cannot
          list, create or revoke tokens.
        </li>
        <li>
          Each token may make a limited number of requests a minute (600 unless your administrators
          chose otherwise). Every answer says how many are left in <code>RateLimit-Limit</code>,{' '}
          <code>RateLimit-Remaining</code> and <code>RateLimit-Reset</code> (seconds); past the
          limit Baton answers 429 with <code>Retry-After</code>.
        </li>
        <li>
          The list shows when each token was last used (recorded at most once a minute) and when it
          expires. An expired token is refused (401) and stays listed until you revoke it.
        </li>
      </ul>
      <Callout title="Revoking">
        Revoke a token from the same card: it is refused from its next request, on every Baton
        server at once. Administrators see everyone's tokens under Settings → Integrations and can
        revoke any of them. When a person's account is deleted, their tokens go with it.
      </Callout>
      <p>
        Integration keys, which monitoring tools raise alerts with (see{' '}
        <Link to="/help/integrations">Integrations</Link>), are not API tokens: they open only the
        alert addresses.
      </p>
    </>
  );
}
