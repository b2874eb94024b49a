/** What the IdP does in the scenarios: a SCIM POST with the directory's bearer token (SCIM is not in the document). */
export async function scim(
  directory: { scim: { endpoint: string; secret: string } },
  path: string,
  body: unknown,
): Promise<{ id: string }> {
  const res = await fetch(`${directory.scim.endpoint}${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${directory.scim.secret}`, 'content-type': 'application/scim+json' },
    body: JSON.stringify(body),
  });
  return (await res.json()) as { id: string };
}
