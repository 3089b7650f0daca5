// An administrator's session on a cloud the scripts started (benchmarks and fault injection).

/** Logs in with these credentials and answers the session token; a refused login is an error. */
export async function adminSession(
  cloudUrl: string,
  credentials: { email: string; password: string },
): Promise<string> {
  const login = await fetch(`${cloudUrl}/api/admin/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(credentials),
  });
  if (login.status !== 200) throw new Error(`admin login failed: ${login.status} ${await login.text()}`);
  return ((await login.json()) as { token: string }).token;
}
