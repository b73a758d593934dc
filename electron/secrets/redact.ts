/**
 * Log redaction: tokens, secrets, codes and signatures never reach a log line, whatever shape they arrive
 * in (query string, JSON, header, bearer value).
 */
const SENSITIVE_KEYS =
  /(access_token|refresh_token|client_secret|code_verifier|token|secret|authorization|signature|code|password|key)$/i;

export function redactText(text: string): string {
  return text
    .replace(/(Bearer\s+)[A-Za-z0-9._~+/=-]+/gi, '$1[redacted]')
    .replace(
      /([?&](?:access_token|refresh_token|client_secret|code|code_verifier|token|state)=)[^&\s"]+/gi,
      '$1[redacted]',
    )
    .replace(
      /("(?:access_token|refresh_token|client_secret|code_verifier|token|id_token)"\s*:\s*")[^"]*"/gi,
      '$1[redacted]"',
    );
}

/** A copy of `fields` with sensitive values replaced; nested objects are walked. */
export function redactFields(fields: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(fields)) {
    if (SENSITIVE_KEYS.test(key) && typeof value === 'string') {
      out[key] = '[redacted]';
    } else if (typeof value === 'string') {
      out[key] = redactText(value);
    } else if (value && typeof value === 'object' && !Array.isArray(value)) {
      out[key] = redactFields(value as Record<string, unknown>);
    } else {
      out[key] = value;
    }
  }
  return out;
}
