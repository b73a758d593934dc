/**
 * What the oauth.test files share: their fixtures and helpers.
 */
import { createSigningKeys } from '../../../sandbox/index';

export const keys = createSigningKeys();
