/**
 * The deb's after-install and after-remove scripts (build/linux/, see docs/platforms.md), run for real as
 * dpkg runs them, as root, inside a private mount namespace: /usr/bin, /etc/alternatives and /var are
 * overlays whose writes vanish with the namespace, and /opt, /etc/apparmor.d and AppArmor's "enabled"
 * switch are empty stand-ins. `apparmor_parser` and `ischroot` are stand-ins that record their calls.
 * The templates are filled in as electron-builder does (every `${name}` must be known); the packaging
 * check asserts electron-builder fills them with these names. Needs root and mount namespaces (CI and this
 * machine have both); elsewhere it is skipped with the reason.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '..', '..');
const NAMES: Record<string, string> = { executable: 'greenroom', sanitizedProductName: 'Greenroom' };

function render(template: string): string {
  const text = readFileSync(join(root, 'build', 'linux', template), 'utf8');
  return text.replace(/\$\{([a-zA-Z]+)\}/g, (_match, name: string) => {
    const value = NAMES[name];
    if (value === undefined) {
      throw new Error(`${template} uses \${${name}}, which electron-builder does not define`);
    }
    return value;
  });
}

/** Runs in the namespace: sets the stand-ins up, then the steps; prints what a test asserts on. */
const HARNESS = String.raw`
set -eu
T="$1"; STEPS="$2"
overlay() { mkdir -p "$T/ov/$1/u" "$T/ov/$1/w"; mount -t overlay overlay -o "lowerdir=$2,upperdir=$T/ov/$1/u,workdir=$T/ov/$1/w" "$2"; }
overlay usrbin /usr/bin
overlay alternatives /etc/alternatives
overlay var /var
mount -t tmpfs none /opt
mount -t tmpfs none /etc/apparmor.d
mkdir -p /opt/Greenroom/resources
cp "$T/apparmor-profile" /opt/Greenroom/resources/apparmor-profile
printf '#!/bin/sh\n' > /opt/Greenroom/greenroom; : > /opt/Greenroom/chrome-sandbox
chmod 755 /opt/Greenroom/greenroom
mount -t tmpfs none /sys/module
mkdir -p /sys/module/apparmor/parameters
echo "$APPARMOR_ENABLED" > /sys/module/apparmor/parameters/enabled
printf '#!/bin/sh\n[ "$IN_CHROOT" = yes ]\n' > /usr/bin/ischroot; chmod 755 /usr/bin/ischroot
mkdir -p "$T/bin"
if [ "$HAS_PARSER" = yes ]; then
  printf '#!/bin/sh\necho "apparmor_parser $*" >> "%s/calls"\ncase "$1" in --skip-kernel-load) exit "$PARSER_READS";; esac\nexit 0\n' "$T" > "$T/bin/apparmor_parser"
  chmod 755 "$T/bin/apparmor_parser"
fi
# unshare: user namespaces for everyone, or for root only (kernel.unprivileged_userns_clone=0).
chmod 755 "$T" "$T/bin"
if [ "$USERNS" = root-only ]; then
  printf '#!/bin/sh\n[ "$(id -u)" = 0 ]\n' > "$T/bin/unshare"
else
  printf '#!/bin/sh\nexit 0\n' > "$T/bin/unshare"
fi
chmod 755 "$T/bin/unshare"
export PATH="$T/bin:$PATH"
for step in $STEPS; do
  echo "--- $step"
  arg=configure; [ "$step" = postrm ] && arg=remove
  bash "$T/$step" "$arg" 2>&1 || echo "exit $?"
  echo "profile: $(cat /etc/apparmor.d/greenroom 2>/dev/null | grep -c '^  userns,$' || true)"
  echo "sandbox helper: $(stat -c %a /opt/Greenroom/chrome-sandbox)"
  if [ -L /usr/bin/greenroom ] || [ -e /usr/bin/greenroom ]; then echo "command: $(readlink -f /usr/bin/greenroom)"; else echo "command: none"; fi
done
echo "--- calls"
cat "$T/calls" 2>/dev/null || true
`;

const work = mkdtempSync(join(tmpdir(), 'greenroom-deb-scripts-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));
writeFileSync(join(work, 'postinst'), render('after-install.tpl'));
writeFileSync(join(work, 'postrm'), render('after-remove.tpl'));
writeFileSync(join(work, 'apparmor-profile'), render('apparmor-profile.tpl'));
writeFileSync(join(work, 'harness.sh'), HARNESS);

function canIsolate(): string | null {
  if (process.platform !== 'linux' || process.getuid?.() !== 0) {
    return 'needs root on Linux';
  }
  const probe = spawnSync('unshare', ['-m', '--propagation', 'private', 'true'], { encoding: 'utf8' });
  return probe.status === 0 ? null : `no private mount namespace here: ${probe.stderr.trim()}`;
}
const skipReason = canIsolate();
if (skipReason) {
  console.log(`deb scripts test skipped: ${skipReason}`);
}

interface Machine {
  apparmorEnabled?: 'Y' | 'N';
  hasParser?: boolean;
  parserReadsProfile?: boolean;
  inChroot?: boolean;
  /** Who the kernel gives user namespaces to. */
  userNamespaces?: 'everyone' | 'root-only';
}

function run(steps: string, machine: Machine = {}): string {
  const result = spawnSync(
    'unshare',
    ['-m', '--propagation', 'private', 'bash', join(work, 'harness.sh'), work, steps],
    {
      encoding: 'utf8',
      env: {
        ...process.env,
        APPARMOR_ENABLED: machine.apparmorEnabled ?? 'Y',
        HAS_PARSER: machine.hasParser === false ? 'no' : 'yes',
        PARSER_READS: machine.parserReadsProfile === false ? '1' : '0',
        IN_CHROOT: machine.inChroot ? 'yes' : 'no',
        USERNS: machine.userNamespaces ?? 'everyone',
      },
    },
  );
  rmSync(join(work, 'calls'), { force: true });
  for (const left of ['ov', 'bin']) {
    rmSync(join(work, left), { recursive: true, force: true });
  }
  expect(result.stderr).toBe('');
  return result.stdout;
}

describe.skipIf(skipReason !== null)('the deb scripts on a machine with AppArmor', () => {
  it('installs, loads, unloads and removes the profile, and links the command', () => {
    const out = run('postinst postrm');
    const [install, remove] = out.split('--- postrm');
    expect(install).toContain('profile: 1');
    expect(install).toContain('command: /opt/Greenroom/greenroom');
    expect(remove).toContain('profile: 0');
    expect(remove).toContain('command: none');
    expect(out).toContain('apparmor_parser --skip-kernel-load --debug /opt/Greenroom/resources/apparmor-profile');
    expect(out).toContain('apparmor_parser -r -W -T /etc/apparmor.d/greenroom');
    expect(out).toContain('apparmor_parser -R /etc/apparmor.d/greenroom');
    expect(out).not.toContain('exit ');
  });

  it('installs no profile where AppArmor cannot read it (before 4.0), and says so', () => {
    const out = run('postinst', { parserReadsProfile: false });
    expect(out).toContain('profile: 0');
    expect(out).toContain('this AppArmor cannot read Greenroom');
    expect(out).not.toContain('apparmor_parser -r');
    expect(out).toContain('command: /opt/Greenroom/greenroom');
  });

  it('installs the profile but loads nothing inside a chroot or with AppArmor off', () => {
    for (const machine of [{ inChroot: true }, { apparmorEnabled: 'N' as const }]) {
      const out = run('postinst', machine);
      expect(out).toContain('profile: 1');
      expect(out).not.toContain('apparmor_parser -r');
    }
  });

  it('keeps the sandbox helper ordinary where users get namespaces, and setuid where only root does', () => {
    expect(run('postinst')).toContain('sandbox helper: 755');
    expect(run('postinst', { userNamespaces: 'root-only' })).toContain('sandbox helper: 4755');
  });

  it('does nothing about AppArmor where it is not installed, and still succeeds', () => {
    const out = run('postinst postrm', { hasParser: false });
    expect(out).not.toContain('profile: 1');
    expect(out).not.toContain('exit ');
    expect(out).toContain('command: /opt/Greenroom/greenroom');
  });
});
