/**
 * Node module hooks that resolve `electron` to the stand-in (stub-electron.mjs) for a process started with
 * `--import <stub-electron-register.mjs>`; every other module resolves as usual.
 */
const STUB = new URL('./stub-electron.mjs', import.meta.url).href;

export async function resolve(specifier, context, nextResolve) {
  if (specifier === 'electron') {
    return { url: STUB, shortCircuit: true };
  }
  return nextResolve(specifier, context);
}
