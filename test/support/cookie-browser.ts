/**
 * The admin's browser in the OAuth flows' HTTP tests (Google's consent, Entra's admin consent): cookies kept, no
 * redirect followed.
 */
import { expect } from 'chai';

/** Keeps the cookies it is given (by name, dropping those set to expire), follows no redirect by itself. */
export class Browser {
  readonly cookies = new Map<string, string>();
  readonly setCookies: string[] = [];
  async get(url: URL | string): Promise<Response> {
    const cookie = [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    const res = await fetch(url, { redirect: 'manual', headers: cookie ? { cookie } : {} });
    for (const header of res.headers.getSetCookie()) {
      this.setCookies.push(header);
      const [pair] = header.split(';');
      const [name, value] = pair!.split('=');
      if (/max-age=0/i.test(header)) this.cookies.delete(name!);
      else this.cookies.set(name!, value!);
    }
    return res;
  }
  /** Follows a 3xx: the Location it points to. */
  async redirected(url: URL | string, status = 303): Promise<URL> {
    const res = await this.get(url);
    expect(res.status, `${url}: ${await res.clone().text()}`).to.equal(status);
    return new URL(res.headers.get('location')!);
  }
}
