/** HTTP Basic client credentials as OAuth sends them (token, introspection endpoints). */

/** RFC 6749 §2.3.1: both parts form-urlencoded before base64. */
export function basicCredentials(id: string, secret: string): string {
  const encode = (s: string) => encodeURIComponent(s).replace(/%20/g, '+');
  return `Basic ${Buffer.from(`${encode(id)}:${encode(secret)}`).toString('base64')}`;
}
