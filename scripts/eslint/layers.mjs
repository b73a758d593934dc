// The layers inside the main process, as VS Code's `code-layering` rule keeps its own
// ([architecture](../../ARCHITECTURE.md#layers-inside-main)): each folder of electron/ may import only the folders
// below it. A folder never imports a folder beside it, so no two folders can form an import circle. Type-only
// imports count too: a type running upwards is the first step of a circle.
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository's root, from this file's place in it: ESLint's working folder may be a subfolder. */
const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** Bottom to top. A folder may import every folder in an earlier row, none in its own row or a later one. */
export const LAYERS = [
  ['core'],
  ['secrets'],
  ['kick', 'automod'],
  // The webhook side's rooms (electron/webhooks/README.md), bottom to top; its root composes them.
  ['webhooks/events'],
  ['webhooks/dedup', 'webhooks/journal', 'webhooks/tunnel'],
  ['webhooks/receive'],
  ['webhooks/subscriptions'],
  ['webhooks'],
  ['live-socket', 'history', 'obs'],
  ['services'],
  ['chat-bot'],
  ['overlays'],
  ['ipc', 'shell'],
  ['panel-server'],
  ['app'],
  ['launch', 'preload'],
  // electron/main.ts and electron/panel-main.ts, the two entries.
  ['(entry)'],
];

const rankOf = new Map(LAYERS.flatMap((row, rank) => row.map((folder) => [folder, rank])));

/**
 * The layer folder of a path inside electron/ ('(entry)' for a file directly in it), or undefined outside. A
 * folder with rooms of its own in LAYERS (`webhooks/receive`) is judged room by room.
 */
export function layerOf(root, file) {
  const inside = relative(join(root, 'electron'), file);
  if (inside.startsWith('..') || inside === '') {
    return undefined;
  }
  const parts = inside.split(sep);
  if (parts.length === 1) {
    return '(entry)';
  }
  const room = `${parts[0]}/${parts[1]}`;
  return parts.length > 2 && rankOf.has(room) ? room : parts[0];
}

/** Why `from` may not import `to`, or undefined when it may. */
export function layerViolation(from, to) {
  if (from === to) {
    return undefined;
  }
  const fromRank = rankOf.get(from);
  const toRank = rankOf.get(to);
  if (fromRank === undefined) {
    return `electron/${from}/ has no place in the layers; add it to LAYERS in scripts/eslint/layers.mjs`;
  }
  if (toRank === undefined) {
    return `electron/${to}/ has no place in the layers; add it to LAYERS in scripts/eslint/layers.mjs`;
  }
  if (toRank < fromRank) {
    return undefined;
  }
  const name = (folder) => (folder === '(entry)' ? 'the entry files' : `electron/${folder}/`);
  const where = toRank === fromRank ? 'beside it' : 'above it';
  return `${name(from)} may not import ${name(to)}, a layer ${where}; move what both need down a layer or pass it in`;
}

/** The ESLint rule: checks every relative import, export-from and dynamic import of a file in electron/. */
export const layersRule = {
  meta: {
    type: 'problem',
    docs: { description: 'Each folder of electron/ imports only the folders below it.' },
    schema: [],
  },
  create(context) {
    const root = ROOT;
    const file = context.filename;
    const from = layerOf(root, file);
    if (from === undefined) {
      return {};
    }
    const check = (node, source) => {
      if (typeof source !== 'string' || !source.startsWith('.')) {
        return;
      }
      const to = layerOf(root, resolve(dirname(file), source));
      const why = to === undefined ? undefined : layerViolation(from, to);
      if (why) {
        context.report({ node, message: why });
      }
    };
    return {
      ImportDeclaration: (node) => check(node, node.source.value),
      ExportNamedDeclaration: (node) => node.source && check(node, node.source.value),
      ExportAllDeclaration: (node) => check(node, node.source.value),
      ImportExpression: (node) => node.source.type === 'Literal' && check(node, node.source.value),
    };
  },
};
