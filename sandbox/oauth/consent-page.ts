/**
 * The sandbox's stand-in for Kick's sign-in and consent screen: one self-contained HTML page (inline
 * styles, no scripts, no external resources) that says plainly it is the Greenroom sandbox, lists the app
 * and the scopes it asks for, and lets the tester pick which sandbox user signs in.
 */
import type { SandboxResponse } from '../http/types';
import type { SandboxState, SandboxUser } from '../state';
import { MODERATOR_USER_ID, STREAMER_USER_ID, viewerIds } from '../world';

/** How many viewers the sign-in select offers besides the streamer and the moderator. */
const CONSENT_VIEWER_CHOICES = 4;

/** The field names the page posts to `/oauth/authorize/decision`. */
export const DECISION_FIELDS = { requestId: 'request_id', userId: 'user_id', decision: 'decision' } as const;

/** Human wording of each scope ([reference §2.5](../../docs/kick-wire-reference.md#25-scopes)). */
const SCOPE_WORDING: Record<string, string> = {
  'user:read': 'Read your user info (name, ID, email)',
  'channel:read': 'Read your channel info',
  'channel:write': 'Update your stream title, category and tags',
  'channel:rewards:read': 'Read your channel-point rewards and redemptions',
  'channel:rewards:write': 'Manage your channel-point rewards and redemptions',
  'chat:write': 'Send chat messages as you or as the bot',
  'streamkey:read': 'See your stream URL and stream key',
  'events:subscribe': 'Subscribe to your channel events',
  'moderation:ban': 'Ban, time out and unban users',
  'moderation:chat_message:manage': 'Delete chat messages',
  'kicks:read': 'Read your KICKs leaderboard',
  'ads:read': 'Read your ad-break status',
  'ads:write': 'Run ad breaks and enroll in ads',
};

/** A sandbox user the tester may sign in as, with the role shown next to the name. */
export interface ConsentUser {
  user: SandboxUser;
  role: string;
}

/** The streamer, the moderator and a few viewers, in that order (those that exist in this world). */
export function consentUsers(state: SandboxState): ConsentUser[] {
  const picks: [number, string][] = [
    [STREAMER_USER_ID, 'streamer'],
    [MODERATOR_USER_ID, 'moderator'],
    ...viewerIds(state)
      .slice(0, CONSENT_VIEWER_CHOICES)
      .map((id): [number, string] => [id, 'viewer']),
  ];
  return picks.flatMap(([id, role]) => {
    const user = state.user(id);
    return user ? [{ user, role }] : [];
  });
}

/** What the consent page shows and where its form posts. */
export interface ConsentPageInput {
  appName: string;
  redirectUri: string;
  scopes: string[];
  users: ConsentUser[];
  requestId: string;
  decisionPath: string;
}

/** Escapes text for HTML element content and double-quoted attributes. */
export function escapeHtml(text: string): string {
  return text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}

const STYLE = `
body{margin:0;font:15px/1.45 system-ui,sans-serif;background:#0b0e0f;color:#e8eaeb}
.banner{background:#53fc18;color:#0b0e0f;font-weight:700;padding:8px 16px;text-align:center}
main{max-width:440px;margin:32px auto;padding:24px;background:#191b1f;border-radius:12px}
h1{font-size:20px;margin:0 0 12px}code{color:#53fc18}ul{padding-left:20px}
label{display:block;margin:16px 0 6px}select{width:100%;padding:8px;border-radius:6px}
.actions{display:flex;gap:12px;margin-top:20px}
button{flex:1;padding:10px;border:0;border-radius:6px;font-weight:700;cursor:pointer}
.approve{background:#53fc18;color:#0b0e0f}.deny{background:#3a3d42;color:#e8eaeb}
.note{font-size:13px;color:#9aa0a6}`;

/** Renders the consent page; the Content-Security-Policy forbids everything but the inline style. */
export function renderConsentPage(input: ConsentPageInput): SandboxResponse {
  const scopes = input.scopes
    .map((s) => `<li><code>${escapeHtml(s)}</code> ${escapeHtml(SCOPE_WORDING[s] ?? '')}</li>`)
    .join('');
  const options = input.users
    .map(
      ({ user, role }, i) =>
        `<option value="${user.userId}"${i === 0 ? ' selected' : ''}>${escapeHtml(user.username)} (${role})</option>`,
    )
    .join('');
  const html = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>Greenroom Kick sandbox: authorize ${escapeHtml(input.appName)}</title><style>${STYLE}</style></head>
<body><div class="banner" role="note">Greenroom Kick sandbox: a local simulation, not kick.com</div>
<main><h1>${escapeHtml(input.appName)} wants to access your account</h1>
<p>It asks for:</p><ul>${scopes}</ul>
<form method="post" action="${escapeHtml(input.decisionPath)}">
<input type="hidden" name="${DECISION_FIELDS.requestId}" value="${escapeHtml(input.requestId)}">
<label for="user">Sign in as</label>
<select id="user" name="${DECISION_FIELDS.userId}">${options}</select>
<div class="actions">
<button class="approve" type="submit" name="${DECISION_FIELDS.decision}" value="approve">Approve</button>
<button class="deny" type="submit" name="${DECISION_FIELDS.decision}" value="deny">Deny</button>
</div></form>
<p class="note">You will be sent back to ${escapeHtml(input.redirectUri)}</p></main></body></html>`;
  return {
    status: 200,
    headers: {
      'content-type': 'text/html; charset=utf-8',
      'cache-control': 'no-store',
      // No form-action: browsers apply it to the redirect after the POST, which must reach the client.
      'content-security-policy':
        "default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; frame-ancestors 'none'",
      'x-frame-options': 'DENY',
    },
    body: html,
  };
}
