/** URL hygiene shared by input validation and delivery logs. */

/** True when the URL carries `user[:password]@`: refused for webhooks (the password would travel and be logged). */
export function hasCredentials(url: string): boolean {
  try {
    const u = new URL(url);
    return u.username !== '' || u.password !== '';
  } catch {
    return false;
  }
}

/**
 * The URL without its credentials, for logs and delivery records: a URL stored before credentials were refused
 * must never show its password there. Anything unparseable is shown as a placeholder rather than verbatim.
 */
export function redactCredentials(url: string): string {
  if (url === '') return url;
  try {
    const u = new URL(url);
    if (u.username === '' && u.password === '') return url;
    u.username = '';
    u.password = '';
    return u.toString();
  } catch {
    return '[unparseable URL]';
  }
}
