/** The sign-in page a person without a session gets at /oauth/authorize: a plain form, no script. */
import { escape, page } from './pages';

export interface SignInView {
  /** null when the request names no known application (the consent page will then say what is wrong). */
  applicationName: string | null;
  /** The authorization URL (path and query) to return to once signed in. */
  returnTo: string;
  email?: string;
  /** Why the last attempt failed, shown above the form. */
  problem?: string;
}

export function signInPage(view: SignInView): string {
  const app = view.applicationName === null ? null : escape(view.applicationName);
  const problem = view.problem ? `<p class="problem" id="problem" role="alert">${escape(view.problem)}</p>\n` : '';
  const described = view.problem ? ' aria-describedby="problem" aria-invalid="true"' : '';
  return page(
    app ? `Sign in to continue to ${view.applicationName}` : 'Sign in',
    `<h1>${app ? `Sign in to continue to <strong>${app}</strong>` : 'Sign in to your calendar account'}</h1>
<p>${app ? `${app} asks to connect to your calendar account. Sign in, then you choose whether to allow it.` : 'Sign in to continue.'}</p>
${problem}<form method="post" action="sign-in">
<input type="hidden" name="return_to" value="${escape(view.returnTo)}">
<label for="email">Email</label>
<input id="email" name="email" type="email" autocomplete="username" required maxlength="254" value="${escape(view.email ?? '')}"${view.problem ? '' : ' autofocus'}${described}>
<label for="password">Password</label>
<input id="password" name="password" type="password" autocomplete="current-password" required maxlength="512"${view.problem ? ' autofocus' : ''}${described}>
<div class="actions"><button type="submit" class="primary">Sign in</button></div>
</form>`,
  );
}
