/**
 * Fresh random keys for what guards a door on loopback: the panel's access token and the overlays' key. Both are
 * secrets, so they are made here, below every folder that hands them out ([architecture](../../ARCHITECTURE.md#layers-inside-main)).
 */
import { randomBytes } from 'node:crypto';

/** A fresh access token: 32 random bytes, base64url. */
export function createPanelToken(): string {
  return randomBytes(32).toString('base64url');
}
