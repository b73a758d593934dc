/**
 * The fixed part of a chat row as DOM nodes: the first-message tag, the reply quote and the line itself (time,
 * badges, coloured name, content, the deleted tag), built off the page and put in with one insertion.
 *
 * Built by hand for the same reason as the content (content-dom.ts): a raid makes and drops 400 rows a
 * second, and as a tree of Svelte pieces (a badges component and its `{#each}`, a content component, a block
 * for each optional part) every row lengthened the frame's chat flush, which is what the storm's latency
 * waited on (docs/decisions.md, "Chat rows are built by hand"). Only what changes after a row is shown stays
 * reactive, in ChatMessage.svelte: the moderation status, the actions, the highlight; a deletion builds the
 * line again.
 *
 * User text only ever becomes text nodes and attribute values: never markup.
 */
import type { ChatMessageView } from '../../../shared/views';
import { buildBadges } from './badge-dom';
import { parseContent, plainContent } from './chat-content';
import { readableNameColour } from './colour';
import { buildContent } from './content-dom';
import { formatClock } from './format';

export interface ChatLineOptions {
  /** The emote image host; without one, emotes show as their names. */
  emoteHost: string;
  /** The signed-in name; mentions of it are marked. */
  selfName: string | null;
  /** The chatter's first message in this channel. */
  first: boolean;
  /** The name was clicked (the panel opens the chatter's card). */
  onName: () => void;
  /** A link in the message was clicked; without it links stay text. */
  onLink?: ((url: string) => void) | undefined;
}

/** The class names the nodes carry; ChatMessage.svelte styles these. */
export const LINE_CLASSES = {
  firstTag: 'first-tag',
  reply: 'reply',
  line: 'line',
  name: 'name',
  colon: 'colon',
  content: 'content',
  messageContent: 'message-content',
  tag: 'tag',
} as const;

function element<K extends keyof HTMLElementTagNameMap>(
  doc: Document,
  tag: K,
  className: string,
  text?: string,
): HTMLElementTagNameMap[K] {
  const el = doc.createElement(tag);
  if (className) {
    el.className = className;
  }
  if (text !== undefined) {
    el.textContent = text;
  }
  return el;
}

function replyQuote(doc: Document, replyTo: NonNullable<ChatMessageView['replyTo']>): HTMLElement {
  const reply = element(doc, 'div', LINE_CLASSES.reply);
  const arrow = element(doc, 'span', '', '↳');
  arrow.setAttribute('aria-hidden', 'true');
  reply.append(
    arrow,
    ' replying to ',
    element(doc, 'strong', '', `@${replyTo.senderUsername}`),
    ':',
    ' ',
    element(doc, 'q', '', plainContent(replyTo.content)),
  );
  return reply;
}

/** The row's fixed nodes for `message`, in a fragment not yet in the page. */
export function buildChatLine(doc: Document, message: ChatMessageView, options: ChatLineOptions): DocumentFragment {
  const out = doc.createDocumentFragment();
  if (options.first) {
    out.append(element(doc, 'div', LINE_CLASSES.firstTag, 'First message in your chat'));
  }
  if (message.replyTo) {
    out.append(replyQuote(doc, message.replyTo));
  }
  const line = element(doc, 'div', LINE_CLASSES.line);
  const time = element(doc, 'time', '', formatClock(message.sentAtMs));
  time.dateTime = new Date(message.sentAtMs).toISOString();
  const name = element(doc, 'button', LINE_CLASSES.name, message.sender.username);
  name.type = 'button';
  const colour = readableNameColour(message.sender.color);
  if (colour) {
    name.style.color = colour;
    // The light theme darkens the name from this, to read on white (app.css).
    name.style.setProperty('--name-colour', colour);
  }
  name.addEventListener('click', () => options.onName());
  // One span carries both names (the row's and the content styles'): every element of a row is styled, laid
  // out and painted once for each of the hundreds of rows a raid draws a second.
  const content = element(doc, 'span', `${LINE_CLASSES.content} ${LINE_CLASSES.messageContent}`);
  content.append(
    buildContent(doc, parseContent(message.content, options.selfName), {
      emoteHost: options.emoteHost,
      onLink: options.onLink,
    }),
  );
  line.append(
    time,
    ' ',
    buildBadges(doc, message.sender.badges),
    ' ',
    name,
    element(doc, 'span', LINE_CLASSES.colon, ':'),
  );
  line.append(' ', content);
  if (message.deleted) {
    line.append(' ', element(doc, 'span', LINE_CLASSES.tag, '(deleted)'));
  }
  out.append(line);
  return out;
}
