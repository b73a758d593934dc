/**
 * Who may use the admin API. It can inject chat, redeem rewards and move the sandbox clock, and it listens
 * on loopback, where every web page the user opens can send it requests. So each request needs the admin
 * token (`Authorization: Bearer …`, printed by `npm run sandbox` as `adminToken` and written to the running
 * app's `sandbox.json`), a Host naming this server (a DNS-rebinding guard), and no Origin but its own
 * (a page elsewhere never gets an answer, even a refusal it could read).
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { SandboxRequest, SandboxResponse } from '../http/types';
import { adminError } from './admin-http';

/** A fresh admin token: 32 random bytes, base64url. */
export function createAdminToken(): string {
  return randomBytes(32).toString('base64url');
}

/** Constant-time equality (both sides hashed first, so neither the content nor the length leaks). */
function sameSecret(presented: string, expected: string): boolean {
  const digest = (text: string): Buffer => createHash('sha256').update(text, 'utf8').digest();
  return timingSafeEqual(digest(presented), digest(expected));
}

function header(req: SandboxRequest, name: string): string | undefined {
  const value = req.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/**
 * Checks one admin request; null when it may proceed, else the refusal: 403 for a foreign Host or Origin,
 * 401 without the right token.
 */
export function checkAdminRequest(
  req: SandboxRequest,
  allowed: { token: string; host: string; port: number },
): SandboxResponse | null {
  const names = new Set([allowed.host, '127.0.0.1', 'localhost']);
  const hosts = [...names].map((name) => `${name}:${allowed.port}`);
  const host = header(req, 'host')?.toLowerCase();
  if (host === undefined || !hosts.includes(host)) {
    return adminError(403, `unexpected Host header; call the admin API as http://127.0.0.1:${allowed.port}`);
  }
  const origin = header(req, 'origin')?.toLowerCase();
  if (origin !== undefined && !hosts.some((h) => origin === `http://${h}`)) {
    return adminError(403, 'cross-origin requests to the admin API are refused');
  }
  const match = /^Bearer (\S+)$/i.exec(header(req, 'authorization') ?? '');
  if (!match || !sameSecret(match[1]!, allowed.token)) {
    return {
      ...adminError(
        401,
        'the admin API needs its token: send Authorization: Bearer <adminToken> (printed by npm run sandbox, ' +
          "or in the running app's sandbox.json)",
      ),
      headers: { 'www-authenticate': 'Bearer realm="greenroom-sandbox-admin"' },
    };
  }
  return null;
}
